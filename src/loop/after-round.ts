import { type Observable, of, throwError } from 'rxjs';
import type { ChatMessage } from '../core/messages.js';
import { LoopAbortedError } from '../core/errors.js';
import type { TurnEvent } from '../core/events.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { LoopDetector } from '../results/loop-detector.js';
import { appendRound } from './append-round.js';
import type { RoundResults } from './collect-round.js';
import { doneStep, nextStep, type IterationStep } from './iteration-step.js';
import { maxIterationsStep } from './max-iterations.js';
import type { Round } from './round.js';
import { stopStep } from './stop-step.js';
import { sumUsage } from './sum-usage.js';
import { nextSnapshot } from './turn-snapshot.js';

/**
 * The round joins history; then cancellation, the loop detector, `stopWhen` and the iteration cap
 * decide the iteration's step.
 *
 * @example
 * ```ts
 * collected$.pipe(mergeMap((collected) => afterRound(it, round, collected, usage)));
 * ```
 */
export function afterRound(it: IterationContext, round: Round, collected: RoundResults, before: TurnSnapshot['usage']): Observable<TurnEvent | IterationStep> {
  const { resolved, snapshot } = it;
  const usage = collected.usage ? sumUsage(before, collected.usage) : before; // its sub-agents' tokens too
  const added: ChatMessage[] = [];
  appendRound(added, { text: round.text, calls: round.calls, results: collected.results, textMode: round.fromText, reasoning: round.reasoning });
  const history = snapshot.history.concat(added);
  const receipts = collected.receipts.length > 0 ? [...snapshot.receipts, ...collected.receipts] : snapshot.receipts;
  if (it.turn.cancelled()) return of(doneStep(nextSnapshot(it, { history, receipts, usage }), '', 'cancelled'));
  const { report: loop, window: loopWindow } = LoopDetector.checkRound(resolved.knobs.loopDetection, snapshot.loopWindow, collected.results);
  if (loop.verdicts.length > 0) resolved.logger.warn({ turnId: it.turn.turnId, loop: loop.verdicts }, 'loop detector');
  const { abort } = loop;
  if (abort) return throwError(() => new LoopAbortedError(abort.tool, abort.text, history));
  const next = nextSnapshot(it, { history, receipts, usage, notes: loop.notes, loopWindow });
  const stopped = stopStep(it, next, collected.results, round.text);
  if (stopped) return of(stopped);
  if (it.iteration >= resolved.knobs.maxToolIterations) return maxIterationsStep(it.turn, next);
  return of(nextStep(next));
}
