import { texts } from '../core/calls.js';
import { withField } from './to-prepared.js';
import type { PrepStep } from '../runtime/resolved-execution.js';

/**
 * Finds the call's tool among the turn's effective tools. An excluded name (trimmed,
 * case-insensitive) → `excluded`; a name that is not runnable → `unknown`. Neither ever runs.
 *
 * @example
 * ```ts
 * resolveTool(call, ctx).filled?.outcome; // 'unknown' for a name the turn does not have
 * ```
 */
export const resolveTool: PrepStep = (call, { turn }) => {
  if (turn.tools.isExcluded(call.name)) {
    return { ...call, filled: { outcome: 'excluded', output: texts.excluded(call.name), success: false } };
  }
  const tool = turn.tools.get(call.name);
  if (!tool) return { ...call, filled: { outcome: 'unknown', output: texts.unknown(call.name), success: false } };
  if (tool.name !== call.name) return { ...call, name: tool.name, tool }; // a `{server}__` suffix: events carry the full name
  return tool === call.tool ? call : withField(call, 'tool', tool);
};
