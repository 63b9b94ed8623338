import { catchError, map, Observable, of, throwError } from 'rxjs';
import { MaxIterationsError } from '../errors.js';
import { buildRequest } from './build-request.js';
import { callProvider } from './call-provider.js';
import { doneStep, type IterationStep } from './iteration-step.js';
import type { ResolvedAgentExecution } from './resolved-execution.js';
import type { TurnState } from './turn-state.js';

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
 * result:  --(d|)        done 'max-iterations'
 * ```
 * @example
 * ```ts
 * maxIterationsStep(resolved, turn).subscribe((step) => step.kind === 'done');
 * ```
 */
export function maxIterationsStep(resolved: ResolvedAgentExecution, turn: TurnState): Observable<IterationStep> {
  const cap = resolved.knobs.maxToolIterations;
  if (resolved.knobs.maxIterationBehavior === 'error') {
    return throwError(() => new MaxIterationsError(cap, [...turn.history]));
  }
  turn.history.push({ role: 'user', content: summaryPrompt(cap) });
  turn.iteration += 1;
  turn.emit({ type: 'iteration', iteration: turn.iteration });
  return callProvider(resolved, turn, buildRequest(resolved, turn, false)).pipe(
    map((response) => {
      if (response.cancelled) return doneStep('', 'cancelled');
      const text = response.text.trim();
      if (text.length === 0) return doneStep(capFallback(cap), 'max-iterations');
      turn.history.push({ role: 'assistant', content: response.text });
      return doneStep(`${response.text}\n\n${capNote(cap)}`, 'max-iterations');
    }),
    catchError((err: unknown) => {
      resolved.logger.warn({ err }, 'max-iteration summary request failed; using the fallback text');
      return of(doneStep(capFallback(cap), 'max-iterations'));
    }),
  );
}
