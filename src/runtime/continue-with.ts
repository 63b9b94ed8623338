import { connect, filter, isObservable, merge, mergeMap, type Observable, of, type OperatorFunction } from 'rxjs';
import { isTurnEvent, type TurnEvent } from '../core/events.js';

/**
 * Joins two stages of the loop: turn events pass straight through, and each result of the first
 * stage (any value that is not an event) is replaced by what `project` returns for it, the next
 * stage's events and result: the source is shared (`connect`), its events go straight on, its
 * results through `mergeMap(project)`, and the two are merged. A projection that returns the
 * next result itself (not an Observable) is emitted as `of(result)` would be. Completes when the
 * source and every projected stage completed; events are never held inside a projection, so a
 * consumer that cancels the turn from an event sees nothing after the turn's end.
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
  return connect((shared) =>
    merge(
      shared.pipe(filter(isTurnEvent)),
      shared.pipe(
        filter((value): value is T => !isTurnEvent(value)),
        mergeMap((value) => {
          const next = project(value);
          return isObservable(next) ? next : of(next);
        }),
      ),
    ),
  );
}
