import { EMPTY, expand, from, last, Observable } from 'rxjs';
import type { TurnEvent } from '../observe/events.js';
import { iterate } from './iterate.js';
import type { ResolvedAgentExecution } from './resolved-execution.js';
import { createTurnState } from './turn-state.js';
import type { TurnInput } from './turn-input.js';

/** How `runToolLoop` runs a turn. */
export interface RunOptions {
  /** Emit `tool-call` and `tool-result` events (default true); false when nothing reads them. */
  readonly callEvents?: boolean;
}

/**
 * Runs one turn as a cold Observable of events: iterations are driven by `expand` until the
 * model answers without tool calls, the turn is cancelled, or the iteration cap is reached.
 * Aborting `input.signal` closes open cards (`interrupted`), appends the round, emits `done`
 * with reason 'cancelled' and completes; unsubscribing tears everything down. Hard failures
 * error the Observable with a ToolLoopError.
 *
 * ```
 * provider 1: --c|             (asks for a tool)
 * tool:          --r|
 * provider 2:        --t|      (answers)
 * events:     i-(c)-r-i--t(d|)
 * ```
 * @example
 * ```ts
 * runToolLoop(resolved, { message: 'What is 2+2?' }).subscribe((e) => console.log(e.type));
 * ```
 */
export function runToolLoop(resolved: ResolvedAgentExecution, input: TurnInput, options: RunOptions = {}): Observable<TurnEvent> {
  return new Observable<TurnEvent>((subscriber) => {
    const turn = createTurnState(resolved, input, (event) => subscriber.next(event), options.callEvents ?? true);
    if (input.steering !== undefined) {
      subscriber.add(
        from(input.steering).subscribe({
          next: (message) => turn.steering.push(message),
          error: (err: unknown) => resolved.logger.warn({ err, turnId: turn.turnId }, 'steering source failed; ignored'),
        }),
      );
    }
    subscriber.add(
      iterate(resolved, turn)
        .pipe(
          expand((step) => (step.kind === 'next' ? iterate(resolved, turn) : EMPTY)),
          last(),
        )
        .subscribe({
          next: (step) => {
            if (step.kind !== 'done') return;
            subscriber.next({
              type: 'done',
              text: step.text,
              reason: step.reason,
              history: turn.history,
              iterations: turn.iteration,
            });
          },
          error: (err: unknown) => subscriber.error(err),
          complete: () => subscriber.complete(),
        }),
    );
  });
}
