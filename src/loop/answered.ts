import { type Observable, of } from 'rxjs';
import type { ChatMessage, ReasoningPart } from '../core/messages.js';
import { NO_ITEMS } from '../core/no-items.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import type { IterationContext } from '../context/resolved-execution.js';
import type { ModelResponse } from '../request/call-provider.js';
import type { ParsedResponse } from '../request/parse-response.js';
import { appendReceipts } from '../results/append-receipts.js';
import { doneStep, nextStep, type IterationStep } from './iteration-step.js';
import { stopStep } from './stop-step.js';
import { structuredAnswer, structuredFailure } from './structured-answer.js';
import { nextSnapshot } from './turn-snapshot.js';

export const malformedRetryText =
  'Your last tool call could not be parsed. To call a tool, write exactly one JSON object per call inside ' +
  '<tool_call></tool_call> tags, like <tool_call>{"name": "tool_name", "arguments": {"key": "value"}}</tool_call>, ' +
  'using only the tools listed. If you do not need a tool, answer in plain text.';

export const malformedApologyText =
  "Sorry, I couldn't complete that: my tool calls kept coming out in a format that could not be read, so I stopped. " +
  'Please try again, perhaps with a simpler request.';

const unparsedCall = { path: [], message: 'it looks like a tool call that could not be parsed' };

/**
 * The model answered without calls: the answer (checked against the turn's output schema when it
 * has one: `structuredAnswer`), a malformed-protocol retry, or steering's next iteration (unless
 * `stopWhen` ends the turn).
 *
 * @example
 * ```ts
 * if (parsed.calls.length === 0) return answered(it, response, parsed, usage);
 * ```
 */
export function answered(it: IterationContext, response: ModelResponse, parsed: ParsedResponse, usage: TurnSnapshot['usage']): Observable<IterationStep> {
  const { knobs } = it.resolved;
  const { snapshot } = it;
  const history = [...snapshot.history, assistantMessage(response.text, response.reasoning)];
  if (parsed.malformed) {
    if (snapshot.malformedRetries >= knobs.maxMalformedProtocolRetries) {
      // a structured turn ends 'final' only with its object
      if (it.turn.output !== undefined) return structuredFailure(response.text, [unparsedCall], nextSnapshot(it, { history, usage }));
      history.push(assistantMessage(malformedApologyText));
      return of(doneStep(nextSnapshot(it, { history, usage }), malformedApologyText, 'final'));
    }
    // a stop here keeps the unreadable answer, without the retry prompt, and says nothing of it
    const stopped = stopStep(it, nextSnapshot(it, { history: history.slice(), usage }), NO_ITEMS, '');
    if (stopped) return of(stopped);
    history.push({ role: 'user', content: malformedRetryText });
    return of(nextStep(nextSnapshot(it, { history, usage, malformedRetries: snapshot.malformedRetries + 1 })));
  }
  const next = nextSnapshot(it, { history, usage });
  if (it.turn.hasSteering() && it.iteration < knobs.maxToolIterations) return of(stopStep(it, next, NO_ITEMS, response.text) ?? nextStep(next));
  const answer = knobs.appendReceiptsToAnswer ? appendReceipts(response.text, snapshot.receipts) : response.text;
  if (it.turn.output !== undefined) return structuredAnswer(it, response.text, next, answer);
  return of(doneStep(next, answer, 'final'));
}

/**
 * The assistant message of a response's text, with the reasoning parts its provider needs back.
 *
 * @example
 * ```ts
 * history.push(assistantMessage(response.text, response.reasoning));
 * ```
 */
export const assistantMessage = (content: string, reasoning?: readonly ReasoningPart[]): ChatMessage =>
  reasoning === undefined ? { role: 'assistant', content } : { role: 'assistant', content, reasoning };
