import { isObservable, Observable, type OperatorFunction } from 'rxjs';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import { subscribeStage } from './stage-subscriber.js';

/**
 * Joins two stages of the loop: turn events pass straight through, and each result of the first
 * stage (any value that is not an event) is replaced by what `project` returns for it — the
 * next stage's events and result. Like `mergeMap` for the results, with the events left as they
 * are (no Observable per event). Completes when the source and every projected stage completed.
 * A projection that returns the next stage's result itself (not an Observable) is emitted at
 * once, as `of(result)` would be, without a subscription.
 *
 * ```
 * source:  -e-e--r|          e: events, r: the stage's result
 * project:        -e-s|       (for r)
 * result:  -e-e---e-s|
 * ```
 * @example
 * ```ts
 * callProvider(it, buildRequest(it)).pipe(continueWith((response) => afterResponse(it, response)));
 * ```
 */
export function continueWith<T extends object, R>(
  project: (value: T) => Observable<TurnEvent | R> | R,
): OperatorFunction<TurnEvent | T, TurnEvent | R> {
  return (source) =>
    new Observable<TurnEvent | R>((subscriber) => {
      let active = 0;
      let sourceDone = false;
      const forward = (v: TurnEvent | R): void => subscriber.next(v);
      const innerDone = (): void => {
        active--;
        if (sourceDone && active === 0) subscriber.complete();
      };
      // each subscription is tied to `subscriber`: unsubscribing tears the source, then every stage, down
      subscribeStage(
        source,
        subscriber,
        (value) => {
          if (isTurnEvent(value)) {
            subscriber.next(value);
            return;
          }
          let next: Observable<TurnEvent | R> | R;
          try {
            next = project(value as T);
          } catch (err) {
            subscriber.error(err);
            return;
          }
          if (!isObservable(next)) {
            subscriber.next(next);
            return;
          }
          active++;
          subscribeStage(next, subscriber, forward, innerDone);
        },
        () => {
          sourceDone = true;
          if (active === 0) subscriber.complete();
        },
      );
    });
}
