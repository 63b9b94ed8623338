import type { ObservableInput } from 'rxjs';
import { switchModel } from '../provider/switch-model.js';
import type { ToolResult } from '../tool/tool.js';
import type { PreparedCall } from '../turn/calls.js';
import type { Ingress } from '../turn/ingress.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';

/** What a `beforeToolCall` hook sees. */
export interface HookCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly id: string;
  readonly slot: number;
  readonly iteration: number;
  readonly ingress: Ingress;
  /** Switches the model of this turn from the next request on (`onModelSwitch` is told). */
  switchModel(model: string): void;
}

/** What the hooks of a call see (built only when the agent has hooks). */
export function hookCall(resolved: ResolvedAgentExecution, turn: TurnState, call: PreparedCall): HookCall {
  return {
    name: call.name,
    args: call.args,
    id: call.id,
    slot: call.slot,
    iteration: turn.iteration,
    ingress: turn.ingress,
    switchModel: (model) => switchModel(resolved, turn, model),
  };
}

/** Keep (undefined), rewrite name and/or args, or cancel with a reason. */
export type BeforeToolCallDecision =
  | void
  | undefined
  | { readonly name?: string; readonly args?: Record<string, unknown> }
  | { readonly cancel: string };

export type BeforeToolCallHook = (
  call: HookCall,
) => BeforeToolCallDecision | PromiseLike<BeforeToolCallDecision> | ObservableInput<BeforeToolCallDecision>;

/** Runs after an executed call (not for filled slots). A hook that throws is logged and ignored. */
export type AfterToolCallHook = (call: HookCall, result: ToolResult & { readonly durationMs: number }) => void | PromiseLike<void>;

export interface AgentHooks {
  readonly beforeToolCall?: readonly BeforeToolCallHook[];
  readonly afterToolCall?: readonly AfterToolCallHook[];
}
