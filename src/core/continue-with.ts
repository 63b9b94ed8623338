import { mergeMap, type ObservableInput, of, type OperatorFunction } from 'rxjs';
import { isTurnEvent, type TurnEvent } from './events.js';

/**
 * Joins two stages of the loop: turn events pass straight through, and each result of the first
 * stage (any value that is not an event) is replaced by what `project` returns for it, the next
 * stage's events and result. It is one `mergeMap`: an event goes on as `of(event)`, a result as
 * `project(result)`; completes when the source and every projected stage completed; an error of
 * either errors the result and tears the rest down. No concurrency limit: an event is never held
 * back behind a projection. (An event that is on its way when a consumer cancels the turn from it
 * can still arrive after the turn's last value; `endTurn` drops what comes after `done`.)
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
  // one subscription for the join, one per value: a stage sends few events and one result
  return mergeMap((value) => (isTurnEvent(value) ? of(value) : project(value)));
}
