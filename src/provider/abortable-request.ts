import { Observable, type Subscriber } from 'rxjs';
import type { ProviderEvent } from './provider.js';

/**
 * A provider request as a cold Observable: subscribing calls `start` with an `AbortController` of
 * the request's own, which aborts when the request's `signal` does and when the Observable is
 * unsubscribed (the listener on `signal` is removed then). `start` begins the request and sends
 * its events to the subscriber; it handles its own failures (`subscriber.error`), and may return
 * one more teardown, run after the abort.
 *
 * ```
 * signal:   -------a          a: the turn's signal aborts
 * request:  -e-e---!          the request's controller aborts; its stream ends
 * ```
 * @example
 * ```ts
 * const request = (url: string, signal: AbortSignal) =>
 *   abortableRequest(signal, (controller, subscriber) => {
 *     fetch(url, { signal: controller.signal }).then(() => subscriber.complete(), (err: unknown) => subscriber.error(err));
 *   });
 * ```
 */
export function abortableRequest(
  signal: AbortSignal,
  start: (controller: AbortController, subscriber: Subscriber<ProviderEvent>) => (() => void) | void,
): Observable<ProviderEvent> {
  return new Observable<ProviderEvent>((subscriber) => {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal.reason);
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', onAbort, { once: true });
    const more = start(controller, subscriber);
    return () => {
      signal.removeEventListener('abort', onAbort);
      controller.abort();
      more?.();
    };
  });
}
