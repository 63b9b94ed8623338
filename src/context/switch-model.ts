import { ConfigurationError } from '../core/errors.js';
import type { IterationContext } from './resolved-execution.js';

/**
 * Switches the model of a running turn: the next provider request uses `model`, and the agent's
 * `onModelSwitch(from, to)` is told. Switching to the current model does nothing. Tools reach it
 * as `ctx.switchModel(model)`, hooks as `call.switchModel(model)`.
 *
 * @example
 * ```ts
 * const escalate = defineTool({ name: 'escalate', description: 'Use the larger model', parameters: z.object({}),
 *   execute: (_args, ctx) => { ctx.switchModel('gpt-4o'); return 'switched'; } });
 * ```
 */
export function switchModel(iteration: IterationContext, model: string): void {
  if (typeof model !== 'string' || model.trim().length === 0) {
    throw new ConfigurationError('switchModel needs a non-empty model name.');
  }
  const from = iteration.model;
  if (model === from) return;
  iteration.model = model;
  iteration.resolved.onModelSwitch?.(from, model);
}
