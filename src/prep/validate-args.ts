import { texts } from '../core/calls.js';
import { withField } from './to-prepared.js';
import type { PrepStep } from '../context/resolved-execution.js';

/**
 * Validates the arguments against the tool's schema and keeps the parsed value. Arguments that
 * could not be decoded, or that fail the schema, → `invalid-arguments` with the message in the
 * model-visible text, so the model can correct itself.
 *
 * @example
 * ```ts
 * validateArgs(call, ctx).filled?.output; // 'Error: invalid arguments for add: ✖ Invalid input…'
 * ```
 */
export const validateArgs: PrepStep = (call) => {
  const tool = call.tool;
  if (!tool) return call;
  if (call.call.argsError !== undefined && call.args === call.call.args) {
    return { ...call, filled: { outcome: 'invalid-arguments', output: texts.invalidArguments(call.name, call.call.argsError), success: false } };
  }
  const checked = tool.check(call.args);
  if (!checked.ok) {
    return { ...call, filled: { outcome: 'invalid-arguments', output: texts.invalidArguments(call.name, checked.message), success: false } };
  }
  return checked.value === call.args ? call : withField(call, 'args', checked.value as Record<string, unknown>);
};
