// rx-tool-loop/operators: the loop's building blocks, for reactive apps that assemble their own loop.
// runToolLoop (src/loop/run-tool-loop.ts) and iterate (src/loop/iterate.ts) are built from exactly these.

// --- a turn's services and data
export { createTurnContext, turnIngress, steer } from './context/turn-context.js';
export { iterationContext } from './context/iteration-context.js';
export { startSnapshot, nextSnapshot, EMPTY_LOOP_WINDOW } from './loop/turn-snapshot.js';
export { effectiveTools } from './registry/effective-tools.js';
export { fromAbortSignal } from './core/from-abort-signal.js';
export { continueWith } from './core/continue-with.js';
export { turnCancellation } from './core/turn-cancellation.js';

// --- request
export { buildRequest } from './request/build-request.js';
export { callProvider } from './request/call-provider.js';
export type { ModelResponse } from './request/call-provider.js';
export { parseResponse, toParsedCall } from './request/parse-response.js';
export type { ParsedResponse } from './request/parse-response.js';

// --- preparation
export { prepareCalls, defaultPrepSteps } from './prep/prepare-calls.js';
export { toPrepared } from './prep/to-prepared.js';
export { createPrepContext, recordArguments } from './prep/prep-context.js';
export { prepGate, isPrepGate } from './prep/prep-gate.js';
export type { PrepStep, ImmediateStep, PrepGate, PrepContext } from './context/resolved-execution.js';
export { buildPrepSteps } from './prep/build-prep-steps.js';
export { beforeToolCallHooks } from './prep/before-tool-call-hooks.js';
export { resolveTool } from './prep/resolve-tool.js';
export { channelDefaults } from './prep/channel-defaults.js';
export { clearApprovedMarker } from './prep/clear-approved-marker.js';
export { validateArgs } from './prep/validate-args.js';
export { promptLoopGuard } from './prep/prompt-loop-guard.js';
export { approvalGate } from './prep/approval-gate.js';
export { restoreApprovedMarker } from './prep/restore-approved-marker.js';
export { dedupGuard } from './prep/dedup-guard.js';

// --- execution
export { dispatchCalls, dispatchBatch } from './execute/dispatch-calls.js';
export { collectBatch } from './execute/collect-batch.js';
export { closeUnfinished } from './execute/close-unfinished.js';
export { dispatchMode } from './execute/dispatch-mode.js';
export { executeOne } from './execute/execute-one.js';
export { BatchRun } from './execute/batch-run.js';
export { parentCallOf } from './execute/parent-call.js';
export type { ParentCall } from './execute/parent-call.js';
export { orderBySlot } from './execute/order-by-slot.js';

// --- the loop
export { collectRound } from './loop/collect-round.js';
export type { RoundResults } from './loop/collect-round.js';
export { appendRound } from './loop/append-round.js';
export { iterate, playRound } from './loop/iterate.js';
export type { Round } from './loop/round.js';
export { resumeIteration } from './loop/resume-iteration.js';
export { parkStep } from './loop/park-step.js';
export { checkSnapshot } from './loop/check-snapshot.js';
export { turnSnapshotSchema } from './loop/snapshot-schema.js';
export { toolFingerprint } from './loop/tool-fingerprint.js';
export { continuePreparation } from './prep/prepare-calls.js';
export { resumeApproval } from './prep/approval-gate.js';
export { maxIterationsStep } from './loop/max-iterations.js';
export { planIteration } from './loop/plan-iteration.js';
export { stopStep } from './loop/stop-step.js';
export { narrowedTools } from './registry/narrowed-tools.js';
export { loopControlOf } from './core/loop-control.js';
export { outputSchema } from './tool/output-schema.js';
export { structuredAnswer, structuredFailure } from './loop/structured-answer.js';
export { checkOutput } from './loop/check-output.js';
export { outputFingerprint } from './loop/output-fingerprint.js';
export { nextStep, doneStep, isIterationStep } from './loop/iteration-step.js';
export type { IterationStep } from './loop/iteration-step.js';
export { endTurn } from './loop/run-tool-loop.js';
export { idleDeadline } from './request/idle-deadline.js';
