import { Observable } from 'rxjs';

/**
 * Emits once (then completes) when the signal aborts; at once when it already has. Never
 * emits without a signal. The listener is removed on teardown.
 *
 * ```
 * signal:  ----abort
 * result:  ----(x|)
 * ```
 * @example
 * ```ts
 * tool$.pipe(takeUntil(fromAbortSignal(controller.signal)));
 * ```
 */
export function fromAbortSignal(signal: AbortSignal | undefined): Observable<void> {
  return new Observable<void>((subscriber) => {
    if (!signal) return;
    if (signal.aborted) {
      subscriber.next();
      subscriber.complete();
      return;
    }
    const onAbort = (): void => {
      subscriber.next();
      subscriber.complete();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  });
}
