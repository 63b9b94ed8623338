// rx-tool-loop/operators: the loop's building blocks, for reactive apps that assemble their own loop.

export { prepareCalls, defaultPrepSteps, toPrepared } from './prep/prepare-calls.js';
export type { PrepStep, PrepContext } from './prep/prep-step.js';
export { resolveTool } from './prep/resolve-tool.js';
export { validateArgs } from './prep/validate-args.js';
export { dispatchCalls, dispatchBatch } from './execute/dispatch-calls.js';
export { dispatchMode } from './execute/dispatch-mode.js';
export { executeOne } from './execute/execute-one.js';
export { orderBySlot } from './execute/order-by-slot.js';
export { fromAbortSignal } from './execute/from-abort-signal.js';
export { callProvider } from './turn/call-provider.js';
export type { ModelResponse } from './turn/call-provider.js';
export { buildRequest } from './turn/build-request.js';
export { parseResponse, toParsedCall } from './turn/parse-response.js';
export { appendRound } from './turn/history.js';
export { iterate } from './turn/iterate.js';
export { runBatch } from './turn/run-batch.js';
export { createTurnState } from './turn/turn-state.js';
export { effectiveTools } from './turn/effective-tools.js';
export type { EffectiveTools } from './turn/effective-tools.js';
