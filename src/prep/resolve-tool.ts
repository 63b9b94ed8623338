import { texts } from '../core/calls.js';
import { withField } from './to-prepared.js';
import type { PrepStep } from '../context/resolved-execution.js';

/**
 * Finds the call's tool among the turn's effective tools. An excluded name (trimmed,
 * case-insensitive) → `excluded`; a name that is not runnable → `unknown` (for a listed deferred
 * tool not activated yet, the text says that `tool_search` activates it). Neither ever runs.
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
  if (!tool) {
    const deferred = turn.tools.pendingDeferred(call.name);
    const output = deferred === undefined ? texts.unknown(call.name) : texts.notActivated(deferred);
    return { ...call, filled: { outcome: 'unknown', output, success: false } };
  }
  if (tool.name !== call.name) return { ...call, name: tool.name, tool }; // a `{server}__` suffix: events carry the full name
  return tool === call.tool ? call : withField(call, 'tool', tool);
};
