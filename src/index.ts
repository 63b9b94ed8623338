// rx-tool-loop: the tool-execution lifecycle of an LLM agent turn as an RxJS observable graph.

// --- agent and turn
export { createAgent } from './agent/create-agent.js';
export type { Agent, AgentConfig, TurnOutcome, StructuredOutcome } from './agent/create-agent.js';
export { delegateTool } from './agent/delegate-tool.js';
export type { DelegateToolOptions } from './agent/delegate-tool.js';
export { runToolLoop } from './loop/run-tool-loop.js';
export { resumeTurn } from './loop/resume-turn.js';
export type { ResumeOptions } from './loop/resume-turn.js';
export type { ResumeDecision } from './loop/check-snapshot.js';
export type { TurnInput } from './core/turn-input.js';
export type { OutputFormat, OutputIssue, OutputCheck, OutputSchema } from './core/structured-output.js';
export type { TurnJournal } from './core/turn-journal.js';
export type { Ingress } from './core/ingress.js';
export type { ChatMessage, ReasoningPart, ToolCallMessagePart } from './core/messages.js';
export type { ResolvedAgentExecution, TurnContext, IterationContext } from './context/resolved-execution.js';
export type { EffectiveTools } from './registry/effective-tools.js';
export { TURN_SNAPSHOT_VERSION } from './core/turn-snapshot.js';
export type { TurnSnapshot, BatchSnapshot, SlotState, SlotResultData, LoopWindow, PromptSignature, OutputState } from './core/turn-snapshot.js';
export { resolveKnobs, DEFAULT_KNOBS } from './core/knobs.js';
export { stepCountIs } from './loop/step-count-is.js';
export { hasToolCall } from './loop/has-tool-call.js';
export type {
  LoopControlOptions,
  LoopState,
  StopState,
  StopCondition,
  PrepareState,
  PrepareIteration,
  PrepareResult,
  IterationPlan,
  RequestSystem,
} from './core/loop-control.js';
export type { Knobs, KnobsInput, LoopDetectionKnobs } from './core/knobs.js';
export type { Clock } from './core/clock.js';
export type { ParsedCall, PreparedCall, SlotResult, FilledSlot } from './core/calls.js';

// --- tools
export { defineTool } from './tool/define-tool.js';
export type { DefineToolOptions } from './tool/define-tool.js';
export { riskOf, TOOL_RISKS } from './core/tool-risk.js';
export type {
  Tool,
  ToolResult,
  ToolReturn,
  ToolContext,
  ToolSpec,
  OpenAIToolSpec,
  ToolAttribution,
  ToolRisk,
  JsonSchema,
  ArgsCheck,
} from './core/tool.js';
export * from './registry/index.js';
export * from './mcp/index.js';

// --- providers
export type {
  ModelProvider,
  ProviderRequest,
  ProviderEvent,
  ProviderServer,
  ProviderToolCall,
  ParsedToolCall,
  TextToolProtocol,
} from './provider/provider.js';
export * from './provider/index.js';

// --- preparation and approval
export type { AgentHooks, BeforeToolCallHook, AfterToolCallHook, BeforeToolCallDecision, HookCall } from './core/hooks.js';
export * from './approval/index.js';

// --- results
export * from './results/index.js';

// --- events and observability
export * from './observe/index.js';
export { isTurnEvent } from './core/events.js';
export type { TokenUsage, NestedEvent } from './core/events.js';

// --- errors
export {
  ToolLoopError,
  ProviderError,
  MaxIterationsError,
  LoopAbortedError,
  LoopControlError,
  DuplicateToolError,
  ToolTimeoutError,
  ConfigurationError,
  TurnInputError,
  StructuredOutputError,
  SnapshotMismatchError,
  SnapshotReplayedError,
  SnapshotTamperedError,
} from './core/errors.js';
