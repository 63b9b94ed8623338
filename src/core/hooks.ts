import type { ObservableInput } from 'rxjs';
import type { ToolResult } from './tool.js';
import type { Ingress } from './ingress.js';

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
