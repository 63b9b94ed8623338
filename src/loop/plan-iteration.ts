import { catchError, concat, concatMap, defer, EMPTY, from, isObservable, type Observable, of, reduce, take, takeUntil, tap, throwError } from 'rxjs';
import { LoopControlError } from '../core/errors.js';
import type { IterationPlan, PrepareIteration, PrepareResult, PrepareState, RequestSystem } from '../core/loop-control.js';
import { NO_ITEMS } from '../core/no-items.js';
import { readThrown, thrownMessage } from '../core/read-thrown.js';
import { scrubCredentials } from '../results/scrub.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { switchModel } from '../context/switch-model.js';
import { doneStep, type IterationStep } from './iteration-step.js';
import { nextSnapshot } from './turn-snapshot.js';

/**
 * Asks the turn's `prepareIteration` functions (the agent's, then the turn's), one after the
 * other, for the plan of the iteration about to be sent, and applies each: the tools narrowed to
 * its names (`turn.narrowTools`: names the iteration does not have are left out, with a warning),
 * the model switched (`switchModel`: spans and the next requests see it), and the system prompt
 * for this request only, which it emits for `buildRequest`. Each function sees what the one
 * before it left. A Promise or Observable answer is waited for (an Observable's first value; none
 * means no plan). A cancelled turn emits the done step 'cancelled' instead. A function that
 * throws, rejects or answers what is not a plan fails the turn with a `LoopControlError`, and a
 * plan with a bad field changes nothing.
 *
 * ```
 * prepare: ---p|           p: a plan, answered as an Observable
 * result:  ---(s|)         s: the request's system prompt (the tools and model already applied)
 *
 * prepare: -----p|
 * cancel:  --x
 * result:  --(d|)          d: done 'cancelled'; the answer is not waited for
 * ```
 * @example
 * ```ts
 * planIteration(it).pipe(continueWith((planned) => (isIterationStep(planned) ? of(planned) : callProvider(it, buildRequest(it, true, planned)))));
 * ```
 * @param it The iteration about to be sent (its tools refreshed).
 * @return The request's system prompt, or the done step when the turn was cancelled meanwhile.
 */
export function planIteration(it: IterationContext): Observable<RequestSystem | IterationStep> {
  return defer(() => {
    let planned = false;
    const start: RequestSystem = { instructions: it.resolved.instructions, appended: NO_ITEMS };
    const prepares: readonly PrepareIteration[] = it.turn.loopControl?.prepareIteration ?? NO_ITEMS;
    return concat(
      from(prepares).pipe(
        concatMap((prepare) => askPlan(it, prepare)),
        reduce((prompt: RequestSystem, plan: PrepareResult) => applyPlan(it, plan, prompt), start),
        tap(() => (planned = true)),
        takeUntil(it.turn.cancel$),
      ),
      defer(() => (planned ? EMPTY : of(doneStep(nextSnapshot(it, { iteration: it.iteration - 1 }), '', 'cancelled')))),
    );
  });
}

/** One function's answer: its plan, once (an Observable's first value; none is no plan). */
function askPlan(it: IterationContext, prepare: PrepareIteration): Observable<PrepareResult> {
  return defer(() => {
    const answer: unknown = prepare(stateOf(it));
    if (isObservable(answer) || typeof readThrown(answer, 'then') === 'function') return from(answer as Observable<PrepareResult>).pipe(take(1));
    return of(answer as PrepareResult);
  }).pipe(catchError((err: unknown) => throwError(() => failure(it, `prepareIteration failed: ${scrubCredentials(thrownMessage(err))}`, err))));
}

/** What `prepareIteration` sees: a frozen copy, so nothing it does changes the turn. */
function stateOf(it: IterationContext): PrepareState {
  const { snapshot } = it;
  return Object.freeze({
    iteration: it.iteration,
    model: it.model,
    history: Object.freeze(snapshot.history.slice()),
    usage: Object.freeze({ ...snapshot.usage }),
    tools: Object.freeze(it.turn.tools.names.slice()),
  });
}

/** Applies a plan (checked whole first) and returns the request's system prompt after it. */
function applyPlan(it: IterationContext, plan: PrepareResult, prompt: RequestSystem): RequestSystem {
  if (plan === undefined || plan === null) return prompt;
  try {
    return applied(it, plan, prompt);
  } catch (err) {
    if (err instanceof LoopControlError) throw err;
    throw failure(it, `prepareIteration's plan could not be applied: ${scrubCredentials(thrownMessage(err))}`, err);
  }
}

function applied(it: IterationContext, plan: IterationPlan, prompt: RequestSystem): RequestSystem {
  if (typeof plan !== 'object' || Array.isArray(plan)) {
    throw failure(it, `prepareIteration answered ${typeof plan === 'object' ? 'an array' : `a ${typeof plan}`}, not a plan ({ tools?, model?, system? }) or undefined.`);
  }
  const { tools, model, system } = plan;
  const names = tools === undefined ? undefined : Array.isArray(tools) ? [...(tools as unknown[])] : null;
  if (names === null || (names !== undefined && !names.every((name) => typeof name === 'string'))) {
    throw failure(it, "prepareIteration's tools must be an array of tool names.");
  }
  if (model !== undefined && (typeof model !== 'string' || model.trim().length === 0)) throw failure(it, "prepareIteration's model must be a non-empty string.");
  const append = typeof system === 'object' && system !== null ? (system as { append?: unknown }).append : undefined;
  if (system !== undefined && typeof system !== 'string' && typeof append !== 'string') {
    throw failure(it, "prepareIteration's system must be a string (in place of the instructions) or { append: string }.");
  }
  if (names !== undefined) narrow(it, names as string[]);
  if (model !== undefined) switchModel(it, model);
  if (typeof system === 'string') return { instructions: system, appended: NO_ITEMS };
  return typeof append === 'string' ? { instructions: prompt.instructions, appended: [...prompt.appended, append] } : prompt;
}

/** Narrows the iteration's tools; names it does not have are left out, and logged. */
function narrow(it: IterationContext, names: readonly string[]): void {
  const { turn } = it;
  const have = new Set(turn.tools.names);
  const strays = names.filter((name) => !have.has(name));
  if (strays.length > 0) {
    it.resolved.logger.warn({ turnId: turn.turnId, iteration: it.iteration, tools: strays }, 'prepareIteration named tools this iteration does not offer; left out');
  }
  turn.narrowTools(names);
}

const failure = (it: IterationContext, message: string, cause?: unknown): LoopControlError =>
  new LoopControlError('prepareIteration', message, it.snapshot.history, cause === undefined ? undefined : { cause });
