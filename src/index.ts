// rx-tool-loop: the tool-execution lifecycle of an LLM agent turn as an RxJS observable graph.

// --- agent and turn
export { createAgent } from './turn/create-agent.js';
export type { Agent, AgentConfig, TurnOutcome } from './turn/create-agent.js';
export { runToolLoop, type RunOptions } from './turn/run-tool-loop.js';
export type { TurnInput } from './turn/turn-input.js';
export type { Ingress } from './turn/ingress.js';
export type { ChatMessage, ToolCallMessagePart } from './turn/messages.js';
export type { ResolvedAgentExecution } from './turn/resolved-execution.js';
export type { TurnState } from './turn/turn-state.js';
export { resolveKnobs, DEFAULT_KNOBS } from './turn/knobs.js';
export type { Knobs, KnobsInput, LoopDetectionKnobs } from './turn/knobs.js';
export type { Clock } from './turn/clock.js';
export type { ParsedCall, PreparedCall, SlotResult, FilledSlot } from './turn/calls.js';

// --- tools
export { defineTool } from './tool/define-tool.js';
export type { DefineToolOptions } from './tool/define-tool.js';
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
} from './tool/tool.js';
export * from './registry/index.js';
export * from './mcp/index.js';

// --- providers
export type {
  ModelProvider,
  ProviderRequest,
  ProviderEvent,
  ProviderToolCall,
  ParsedToolCall,
  TextToolProtocol,
} from './provider/provider.js';
export * from './provider/index.js';

// --- preparation and approval
export type { AgentHooks, BeforeToolCallHook, AfterToolCallHook, BeforeToolCallDecision, HookCall } from './prep/hooks.js';
export * from './approval/index.js';

// --- results
export * from './results/index.js';

// --- events and observability
export * from './observe/index.js';

// --- errors
export {
  ToolLoopError,
  ProviderError,
  MaxIterationsError,
  LoopAbortedError,
  DuplicateToolError,
  ToolTimeoutError,
  ConfigurationError,
} from './errors.js';
