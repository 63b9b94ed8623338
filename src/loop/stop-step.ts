import type { SlotResult } from '../core/calls.js';
import { LoopControlError } from '../core/errors.js';
import type { StopState } from '../core/loop-control.js';
import { readThrown, thrownMessage } from '../core/read-thrown.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import { appendReceipts } from '../results/append-receipts.js';
import { scrubCredentials } from '../results/scrub.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { doneStep, type IterationStep } from './iteration-step.js';

/**
 * Asks the turn's `stopWhen` conditions, in order, whether the turn ends here: after a round
 * joined history (`next`), before the next request. The first that returns true ends the turn
 * with `done`, reason `'stopped'`, and `text`: what the model wrote beside its last calls (often
 * empty; the turn's receipts listed after it when `appendReceiptsToAnswer` is on). Undefined when
 * none does (or the turn has none). A condition that throws, or returns anything but a boolean
 * (a Promise included), fails the turn with a `LoopControlError`.
 *
 * @example
 * ```ts
 * return of(stopStep(it, next, round.results, round.text) ?? nextStep(next));
 * ```
 * @param it The iteration whose round just joined history.
 * @param next The snapshot the next iteration would start from.
 * @param results The round's results in slot order (none when the model answered).
 * @param text The text of the iteration's response.
 * @return The done step, or undefined to go on.
 */
export function stopStep(it: IterationContext, next: TurnSnapshot, results: readonly SlotResult[], text: string): IterationStep | undefined {
  const conditions = it.turn.loopControl?.stopWhen;
  if (conditions === undefined || conditions.length === 0) return undefined;
  const state: StopState = Object.freeze({
    iteration: it.iteration,
    model: next.model,
    history: Object.freeze(next.history.slice()),
    usage: Object.freeze({ ...next.usage }),
    results: Object.freeze(results.slice()),
  });
  for (let i = 0; i < conditions.length; i++) {
    let answer: unknown;
    try {
      answer = conditions[i](state);
    } catch (err) {
      throw new LoopControlError('stopWhen', `stopWhen condition ${i + 1} threw: ${scrubCredentials(thrownMessage(err))}`, next.history, { cause: err });
    }
    if (answer === true) {
      const shown = it.resolved.knobs.appendReceiptsToAnswer ? appendReceipts(text, next.receipts) : text;
      return doneStep(next, shown, 'stopped');
    }
    if (answer !== false) throw new LoopControlError('stopWhen', `stopWhen condition ${i + 1} returned ${kindOf(answer)}, not true or false.`, next.history);
  }
  return undefined;
}

/** What a condition returned, in a few words. */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof readThrown(value, 'then') === 'function') return 'a Promise (a condition answers at once)';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
