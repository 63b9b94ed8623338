import { catchError, concat, type Observable, of, throwError } from 'rxjs';
import { MaxIterationsError } from '../core/errors.js';
import { buildRequest } from '../request/build-request.js';
import { callProvider, type ModelResponse } from '../request/call-provider.js';
import type { TurnEvent } from '../core/events.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import { continueWith } from '../core/continue-with.js';
import { iterationContext } from '../context/iteration-context.js';
import type { TurnContext } from '../context/resolved-execution.js';
import { doneStep, type IterationStep } from './iteration-step.js';

export const summaryPrompt = (cap: number): string =>
  `You have reached the limit of ${cap} tool iterations for this turn. Do not call any more tools. ` +
  'Give your best answer from what you have found so far, and say what is still missing.';

export const capNote = (cap: number): string => `[Stopped after reaching the tool iteration limit (${cap}).]`;

export const capFallback = (cap: number): string =>
  `I stopped after ${cap} tool iterations without reaching a final answer. Please narrow the request or raise the iteration limit.`;

/**
 * Ends a turn that reached `maxToolIterations`. `'error'` fails with MaxIterationsError (which
 * carries the history). `'summary'` asks the model once more, without tools, for its best answer
 * and returns it followed by a note; when that call fails or says nothing, the fallback text.
 *
 * ```
 * summary: --s|          (one request without tools)
 * result:  i-(d|)        i: iteration event; d: done 'max-iterations'
 * ```
 * @example
 * ```ts
 * if (it.iteration >= knobs.maxToolIterations) return maxIterationsStep(turn, next);
 * ```
 * @param turn The turn's services.
 * @param snapshot The snapshot after the last round.
 * @return The summary request's events, then the done step.
 */
export function maxIterationsStep(turn: TurnContext, snapshot: TurnSnapshot): Observable<TurnEvent | IterationStep> {
  const { resolved } = turn;
  const cap = resolved.knobs.maxToolIterations;
  if (resolved.knobs.maxIterationBehavior === 'error') {
    return throwError(() => new MaxIterationsError(cap, [...snapshot.history]));
  }
  const asked: TurnSnapshot = {
    ...snapshot,
    history: [...snapshot.history, { role: 'user', content: summaryPrompt(cap) }],
    iteration: snapshot.iteration + 1,
  };
  const it = iterationContext(turn, asked);
  const summary$ = callProvider(it, buildRequest(it, false)).pipe(
    continueWith((response: ModelResponse) => {
      const usage = {
        inputTokens: asked.usage.inputTokens + response.usage.inputTokens,
        outputTokens: asked.usage.outputTokens + response.usage.outputTokens,
      };
      if (response.cancelled) return of(doneStep({ ...asked, usage }, '', 'cancelled'));
      if (response.text.trim().length === 0) return of(doneStep({ ...asked, usage }, capFallback(cap), 'max-iterations'));
      const history = [...asked.history, { role: 'assistant' as const, content: response.text }];
      return of(doneStep({ ...asked, history, usage }, `${response.text}\n\n${capNote(cap)}`, 'max-iterations'));
    }),
    catchError((err: unknown) => {
      resolved.logger.warn({ err }, 'max-iteration summary request failed; using the fallback text');
      return of(doneStep(asked, capFallback(cap), 'max-iterations'));
    }),
  );
  if (turn.quiet === true) return summary$; // nobody reads the turn's events (TurnContext.quiet)
  return concat(of<TurnEvent>({ type: 'iteration', iteration: asked.iteration, model: it.model }), summary$);
}
