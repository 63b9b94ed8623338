import { defer, mergeMap, type Observable, of, throwError } from 'rxjs';
import { LoopAbortedError } from '../errors.js';
import { appendReceipts } from '../results/append-receipts.js';
import { buildRequest } from './build-request.js';
import { callProvider, type ModelResponse } from './call-provider.js';
import { appendRound } from './history.js';
import { doneStep, NEXT, type IterationStep } from './iteration-step.js';
import { maxIterationsStep } from './max-iterations.js';
import { parseResponse } from './parse-response.js';
import type { ResolvedAgentExecution } from './resolved-execution.js';
import { runBatch } from './run-batch.js';
import type { TurnState } from './turn-state.js';

export const malformedRetryText =
  'Your last tool call could not be parsed. To call a tool, write exactly one JSON object per call inside ' +
  '<tool_call></tool_call> tags, like <tool_call>{"name": "tool_name", "arguments": {"key": "value"}}</tool_call>, ' +
  'using only the tools listed. If you do not need a tool, answer in plain text.';

export const malformedApologyText =
  "Sorry, I couldn't complete that: my tool calls kept coming out in a format that could not be read, so I stopped. " +
  'Please try again, perhaps with a simpler request.';

/**
 * One iteration: steering messages join history, the request is sent, and its calls (if any)
 * are prepared, dispatched and appended to history in slot order. Emits exactly one step.
 *
 * ```
 * provider: ---r|
 * batch:        ----(R|)
 * result:   -------(n|)      'next', or 'done' when the model answered without calls
 * ```
 * @example
 * ```ts
 * iterate(resolved, turn).pipe(expand((s) => (s.kind === 'next' ? iterate(resolved, turn) : EMPTY)));
 * ```
 */
export function iterate(resolved: ResolvedAgentExecution, turn: TurnState): Observable<IterationStep> {
  return defer(() => {
    if (turn.cancelled()) return of(doneStep('', 'cancelled'));
    for (const message of turn.steering.splice(0)) turn.history.push({ role: 'user', content: message });
    turn.iteration += 1;
    turn.emit({ type: 'iteration', iteration: turn.iteration });
    turn.tools = turn.tools.refresh();
    return callProvider(resolved, turn, buildRequest(resolved, turn)).pipe(
      mergeMap((response) => afterResponse(resolved, turn, response)),
    );
  });
}

function afterResponse(resolved: ResolvedAgentExecution, turn: TurnState, response: ModelResponse): Observable<IterationStep> {
  if (response.cancelled) return of(doneStep('', 'cancelled'));
  const { knobs } = resolved;
  const parsed = parseResponse(resolved, turn, response);
  if (parsed.calls.length === 0) {
    turn.history.push({ role: 'assistant', content: response.text });
    if (parsed.malformed) {
      if (turn.malformedRetries >= knobs.maxMalformedProtocolRetries) {
        turn.history.push({ role: 'assistant', content: malformedApologyText });
        return of(doneStep(malformedApologyText, 'final'));
      }
      turn.malformedRetries += 1;
      turn.history.push({ role: 'user', content: malformedRetryText });
      return of(NEXT);
    }
    if (turn.steering.length > 0 && turn.iteration < knobs.maxToolIterations) return of(NEXT);
    const answer = knobs.appendReceiptsToAnswer ? appendReceipts(response.text, turn.receipts) : response.text;
    return of(doneStep(answer, 'final'));
  }
  return runBatch(resolved, turn, parsed.calls).pipe(
    mergeMap((results) => {
      appendRound(turn.history, { text: response.text, calls: parsed.calls, results, textMode: parsed.fromText });
      if (turn.cancelled()) return of(doneStep('', 'cancelled'));
      const loop = turn.loopDetector.check(results);
      if (loop.verdicts.length > 0) resolved.logger.warn({ turnId: turn.turnId, loop: loop.verdicts }, 'loop detector');
      const { abort } = loop;
      if (abort) return throwError(() => new LoopAbortedError(abort.tool, abort.text, [...turn.history]));
      turn.notes.push(...loop.notes);
      if (turn.iteration >= knobs.maxToolIterations) return maxIterationsStep(resolved, turn);
      return of(NEXT);
    }),
  );
}
