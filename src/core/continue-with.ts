import { connect, filter, merge, mergeMap, type ObservableInput, type OperatorFunction } from 'rxjs';
import { isTurnEvent, type TurnEvent } from './events.js';

/**
 * Joins two stages of the loop: turn events pass straight through, and each result of the first
 * stage (any value that is not an event) is replaced by what `project` returns for it, the next
 * stage's events and result. It is `mergeMap(project)` on the results, merged with the events
 * (`connect` shares the source between the two): completes when the source and every projected
 * stage completed; an error of either errors the result and tears the rest down. Events are
 * never held inside a projection, so a consumer that cancels the turn from an event sees nothing
 * after the turn's end.
 *
 * ```
 * source:  -e-e--r|          e: events, r: the stage's result
 * project:        -e-s|       (for r)
 * result:  -e-e---e-s|
 * ```
 * @example
 * ```ts
 * callProvider(it, buildRequest(it)).pipe(continueWith((response) => of(parseResponse(it, response))));
 * ```
 * @param project Maps the stage's result to the next stage.
 * @return The events, then the next stage's values.
 */
export function continueWith<T extends object, R>(
  project: (value: T) => ObservableInput<TurnEvent | R>,
): OperatorFunction<TurnEvent | T, TurnEvent | R> {
  return connect((stage$) =>
    merge(
      stage$.pipe(filter(isTurnEvent)),
      stage$.pipe(
        filter((value): value is T => !isTurnEvent(value)),
        mergeMap((value) => project(value)),
      ),
    ),
  );
}
