import { isObservable, Observable, type OperatorFunction } from 'rxjs';
import { isTurnEvent, type TurnEvent } from './events.js';

/**
 * Joins two stages of the loop: turn events pass straight through, and each result of the first
 * stage (any value that is not an event) is replaced by what `project` returns for it, the next
 * stage's events and result, as `mergeMap(project)` would subscribe it. A projection that returns
 * the next result itself (not an Observable) is emitted at once, as `of(result)` would be.
 * Completes when the source and every projected stage completed; an error of either errors the
 * result and tears the rest down. Events are never held inside a projection, so a consumer that
 * cancels the turn from an event sees nothing after the turn's end. Built on `new Observable`
 * with one subscription to the source and one per projected stage: it joins every stage of a
 * turn, so it costs no `Subject` or `merge` of its own.
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
 * @param project Maps the stage's result to the next stage (an Observable) or to its result.
 * @return The events, then the next stage's values.
 */
export function continueWith<T extends object, R>(
  project: (value: T) => Observable<TurnEvent | R> | R,
): OperatorFunction<TurnEvent | T, TurnEvent | R> {
  return (source) =>
    new Observable<TurnEvent | R>((subscriber) => {
      let active = 0;
      let sourceDone = false;
      const innerDone = (): void => {
        active--;
        if (sourceDone && active === 0) subscriber.complete();
      };
      const inner = {
        next: (value: TurnEvent | R) => subscriber.next(value),
        error: (err: unknown) => subscriber.error(err),
        complete: innerDone,
      };
      return source.subscribe({
        next: (value) => {
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
          if (subscriber.closed) return;
          active++;
          subscriber.add(next.subscribe(inner));
        },
        error: (err) => subscriber.error(err),
        complete: () => {
          sourceDone = true;
          if (active === 0) subscriber.complete();
        },
      });
    });
}
