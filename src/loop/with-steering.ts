import { defer, finalize, from, type Observable, type ObservableInput } from 'rxjs';
import type { TurnContext } from '../context/resolved-execution.js';
import { steer } from '../context/turn-context.js';

/**
 * A turn's events with its steering listened to while they run: each message is queued on the
 * turn and joins history at the start of its next iteration. A steering source that fails is
 * logged and ignored; it is unsubscribed when the events end.
 *
 * ```
 * steering: ----m-----
 * events:   -i-----i-(d|)     m joins history as the second iteration starts
 * ```
 * @example
 * ```ts
 * const steered$ = withSteering(turn, input.steering, events$);
 * ```
 * @param turn The turn the messages steer.
 * @param steering The user's messages that arrive mid-turn, if any.
 * @param events$ The turn's events.
 * @return The same events.
 */
export function withSteering<T>(turn: TurnContext, steering: ObservableInput<string> | undefined, events$: Observable<T>): Observable<T> {
  if (steering === undefined) return events$;
  return defer(() => {
    const listening = from(steering).subscribe({
      next: (message) => steer(turn, message),
      error: (err: unknown) => turn.resolved.logger.warn({ err, turnId: turn.turnId }, 'steering source failed; ignored'),
    });
    return events$.pipe(finalize(() => listening.unsubscribe()));
  });
}
