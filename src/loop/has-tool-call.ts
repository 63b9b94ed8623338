import { ConfigurationError } from '../core/errors.js';
import type { StopCondition } from '../core/loop-control.js';

/**
 * A `stopWhen` condition: the turn ends (reason `'stopped'`) after a round in which one of these
 * tools ran and succeeded (outcome `executed`), before the model is asked again. A call that was
 * refused (unknown, excluded, denied, invalid arguments, …), failed or was interrupted does not
 * count. At least one name, each a string, else a `ConfigurationError`.
 *
 * @example
 * ```ts
 * const agent = createAgent({ provider, model: 'gpt-4o-mini', tools: [search, submitAnswer], stopWhen: hasToolCall('submit_answer') });
 * ```
 * @param names The tools' names, as their events carry them.
 * @return The condition.
 */
export function hasToolCall(...names: string[]): StopCondition {
  if (names.length === 0 || !names.every((name) => typeof name === 'string')) {
    throw new ConfigurationError('hasToolCall needs one or more tool names.');
  }
  const wanted = new Set(names);
  return (state) => state.results.some((result) => result.outcome === 'executed' && wanted.has(result.name));
}
