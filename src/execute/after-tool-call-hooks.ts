import type { ToolResult } from '../core/tool.js';
import type { PreparedCall } from '../core/calls.js';
import { hookCall } from '../context/hook-call.js';
import type { IterationContext } from '../context/resolved-execution.js';

/**
 * Runs the agent's `afterToolCall` hooks for a call that executed (succeeded or failed; never
 * for slots filled by preparation). Hooks run in order and are not awaited; a hook that throws
 * or rejects is logged and ignored, so it can never change the result or fail the turn.
 *
 * @example
 * ```ts
 * runAfterToolCallHooks(iteration, call, { success: true, output: '42', durationMs: 3 });
 * ```
 */
export function runAfterToolCallHooks(
  iteration: IterationContext,
  call: PreparedCall,
  result: ToolResult & { readonly durationMs: number },
): void {
  const { resolved, turn } = iteration;
  const hooks = resolved.hooks.afterToolCall;
  if (!hooks || hooks.length === 0) return;
  const seen = hookCall(iteration, call);
  const ignored = (err: unknown): void =>
    resolved.logger.warn({ err, tool: call.name, toolCallId: call.id, turnId: turn.turnId }, 'afterToolCall hook failed; ignored');
  for (const hook of hooks) {
    try {
      const returned = hook(seen, result);
      if (returned && typeof returned.then === 'function') returned.then(undefined, ignored);
    } catch (err) {
      ignored(err);
    }
  }
}
