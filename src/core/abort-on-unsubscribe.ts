import { Observable, Subscription } from 'rxjs';
import { fromAbortSignal } from './from-abort-signal.js';

/**
 * Runs `run` with a signal of its own that aborts when `signal` does, and also when the
 * subscriber unsubscribes before the run ends: then the run is aborted first and torn down after,
 * so unsubscribing closes it exactly as aborting does (a turn's open slots end `interrupted` and
 * its observers are told: every `tool-call-start` gets its `tool-call-end`); what it emits
 * meanwhile goes nowhere. A run that completes or errors is not aborted. The caller's `signal`
 * is never aborted; its listener is removed on teardown. `callProvider` gives each provider
 * request its signal this way, so a provider sees the abort before its stream is torn down.
 *
 * ```
 * run:         -a--b--|
 * unsubscribe: ---!
 * run signal:  ---x          (aborted, then the run is unsubscribed)
 * result:      -a-
 * ```
 * @example
 * ```ts
 * abortOnUnsubscribe(input.signal, (signal) => runToolLoop(resolved, { ...input, signal }));
 * ```
 * @param signal The caller's signal, if any.
 * @param run Starts the work with the signal it must honour.
 * @return The run's values.
 */
export function abortOnUnsubscribe<T>(signal: AbortSignal | undefined, run: (signal: AbortSignal) => Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const controller = new AbortController();
    // added before the run's subscription, so an unsubscribe aborts the run before tearing it down
    const abortFirst = new Subscription(() => controller.abort());
    subscriber.add(abortFirst);
    subscriber.add(fromAbortSignal(signal).subscribe(() => controller.abort()));
    return run(controller.signal).subscribe({
      next: (value) => subscriber.next(value),
      error: (err: unknown) => {
        subscriber.remove(abortFirst); // ended: nothing left to abort
        subscriber.error(err);
      },
      complete: () => {
        subscriber.remove(abortFirst);
        subscriber.complete();
      },
    });
  });
}
