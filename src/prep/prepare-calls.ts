import { Observable, type OperatorFunction } from 'rxjs';
import type { ParsedCall, PreparedCall } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { approvalGate } from './approval-gate.js';
import { beforeToolCallHooks } from './before-tool-call-hooks.js';
import { channelDefaults } from './channel-defaults.js';
import { clearApprovedMarker } from './clear-approved-marker.js';
import { dedupGuard } from './dedup-guard.js';
import { CallPreparer } from './call-preparer.js';
import { createPrepContext, type PrepStep } from './prep-step.js';
import { promptLoopGuard } from './prompt-loop-guard.js';
import { resolveTool } from './resolve-tool.js';
import { restoreApprovedMarker } from './restore-approved-marker.js';
import { validateArgs } from './validate-args.js';

/**
 * Every preparation step, in the order BEHAVIOUR.md gives: hooks (they may rename) → resolve the
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
 * Prepares each call in slot order, one at a time (so approval prompts are asked one at a
 * time): every step runs in order until the call is filled. Synchronous steps cost no
 * subscription; a step that waits holds back the calls behind it.
 *
 * ```
 * calls:    (abc|)
 * a prompt: ---y|
 * result:   ---a(bc|)
 * ```
 * @example
 * ```ts
 * from(parsed).pipe(prepareCalls(resolved, turn), dispatchCalls(resolved, turn));
 * ```
 */
export function prepareCalls(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  steps: readonly PrepStep[] = defaultPrepSteps,
): OperatorFunction<ParsedCall, PreparedCall> {
  return (source) =>
    new Observable<PreparedCall>((subscriber) => {
      const preparer = new CallPreparer(steps, createPrepContext(resolved, turn), subscriber);
      const sourceSub = source.subscribe({
        next: (call) => preparer.add(call),
        error: (err: unknown) => subscriber.error(err),
        complete: () => preparer.end(),
      });
      return () => {
        sourceSub.unsubscribe();
        preparer.unsubscribe();
      };
    });
}
