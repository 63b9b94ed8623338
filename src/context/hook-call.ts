import type { PreparedCall } from '../core/calls.js';
import type { HookCall } from '../core/hooks.js';
import type { IterationContext } from './resolved-execution.js';
import { switchModel } from './switch-model.js';

/**
 * What the hooks of a call see (built only when the agent has hooks).
 *
 * @example
 * ```ts
 * for (const hook of resolved.hooks.beforeToolCall ?? []) hook(hookCall(iteration, call));
 * ```
 */
export function hookCall(iteration: IterationContext, call: PreparedCall): HookCall {
  return {
    name: call.name,
    args: call.args,
    id: call.id,
    slot: call.slot,
    iteration: iteration.iteration,
    ingress: iteration.turn.ingress,
    switchModel: (model) => switchModel(iteration, model),
  };
}
