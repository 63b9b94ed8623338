import { concatMap, defer, type Observable, of, type OperatorFunction, takeWhile } from 'rxjs';
import type { ParsedCall, PreparedCall } from '../core/calls.js';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import { continueWith } from '../core/continue-with.js';
import { createPrepContext } from './prep-context.js';
import { isPrepGate } from './prep-gate.js';
import { mayPark, readableSteps } from './build-prep-steps.js';
import type { IterationContext, PrepContext, PrepStep } from '../context/resolved-execution.js';
import { approvalGate } from './approval-gate.js';
import { beforeToolCallHooks } from './before-tool-call-hooks.js';
import { channelDefaults } from './channel-defaults.js';
import { clearApprovedMarker } from './clear-approved-marker.js';
import { dedupGuard } from './dedup-guard.js';
import { promptLoopGuard } from './prompt-loop-guard.js';
import { resolveTool } from './resolve-tool.js';
import { restoreApprovedMarker } from './restore-approved-marker.js';
import { toPrepared } from './to-prepared.js';
import { untilParked } from './until-parked.js';
import { validateArgs } from './validate-args.js';

/**
 * Every preparation step, in the documented order: hooks (they may rename) → resolve the
 * tool (unknown and excluded calls end here, before any prompt) → channel defaults → clear the
 * `approved` marker → validate the arguments (invalid calls are never prompted for) → prompt-loop
 * guard → approval gate → restore the marker → dedup guard. Each step skips itself when its
 * feature is not configured; `buildPrepSteps` drops those steps up front.
 */
export const defaultPrepSteps: readonly PrepStep[] = Object.freeze([
  beforeToolCallHooks,
  resolveTool,
  channelDefaults,
  clearApprovedMarker,
  validateArgs,
  promptLoopGuard,
  approvalGate,
  restoreApprovedMarker,
  dedupGuard,
]);

/**
 * Prepares each call in slot order, one at a time (`concatMap`: approval prompts are asked one
 * at a time): the steps run in order until the call is filled or ready. Synchronous steps run
 * one after the other in a loop; a step that may wait (`prepGate`: hooks, a prompt) returns an
 * Observable, whose events (approval request and decision) pass through before the call, and the
 * calls behind it wait. A step
 * that completes without a call drops the call. A call parked at an approval is the last value
 * (`untilParked`; left out for an agent's pipeline without an approval gate, which cannot park).
 *
 * ```
 * calls:    (abc|)
 * a prompt: -q--y|           q: approval-request, y: decision
 * result:   -q--(yabc|)      events, then the prepared calls in slot order
 * ```
 * @example
 * ```ts
 * from(parsed.calls).pipe(prepareCalls(it), takeUntil(it.turn.cancel$), collectBatch(parsed.calls));
 * ```
 * @param iteration The iteration the calls belong to.
 * @param steps The preparation steps (default: the agent's, `resolved.prepSteps`).
 * @return Events and prepared calls, in slot order.
 */
export function prepareCalls(
  iteration: IterationContext,
  steps: readonly PrepStep[] = iteration.resolved.prepSteps,
  ctx?: PrepContext,
): OperatorFunction<ParsedCall, TurnEvent | PreparedCall> {
  const readable = readableSteps(steps);
  const parks = mayPark(steps);
  const prepare = (source: Observable<ParsedCall>, batch: PrepContext): Observable<TurnEvent | PreparedCall> => {
    const prepared = source.pipe(concatMap((call) => continuePreparation(toPrepared(call), 0, readable, batch)));
    return parks ? prepared.pipe(untilParked()) : prepared; // takeWhile(not parked, inclusive): a parked call is the last
  };
  // without a batch's context, each subscription makes its own
  return (source) => (ctx ? prepare(source, ctx) : defer(() => prepare(source, createPrepContext(iteration))));
}

/**
 * Runs the steps from `first` on until the call is filled, ready or parked; a step that may wait
 * (`prepGate`) resumes the call at the next step with the first call it emits.
 *
 * @example
 * ```ts
 * continuePreparation(approvedCall, steps.indexOf(approvalGate) + 1, steps, ctx); // a resumed turn
 * ```
 */
export function continuePreparation(call: PreparedCall, first: number, steps: readonly PrepStep[], ctx: PrepContext): Observable<TurnEvent | PreparedCall> {
  let current = call;
  for (let i = first; i < steps.length && !current.filled; i++) {
    const step = steps[i];
    if (isPrepGate(step)) return resumeAfter(step(current, ctx), i + 1, steps, ctx);
    current = step(current, ctx);
  }
  return of(current);
}

/**
 * A step that waits: its events pass, and the first call it emits decides (the step's source is
 * torn down then); that call's preparation goes on at step `first`, unless it is parked. A step
 * that completes without a call drops the call.
 */
function resumeAfter(waiting: Observable<TurnEvent | PreparedCall>, first: number, steps: readonly PrepStep[], ctx: PrepContext): Observable<TurnEvent | PreparedCall> {
  return waiting.pipe(
    takeWhile((value: TurnEvent | PreparedCall) => isTurnEvent(value), true),
    continueWith((call: PreparedCall) => (call.paused ? of(call) : continuePreparation(call, first, steps, ctx))),
  );
}
