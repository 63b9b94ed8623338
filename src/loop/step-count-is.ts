import { ConfigurationError } from '../core/errors.js';
import type { StopCondition } from '../core/loop-control.js';

/**
 * A `stopWhen` condition: the turn ends (reason `'stopped'`) once `count` iterations (provider
 * requests) have run and the last one's round joined history, instead of sending another request.
 * Unlike `maxToolIterations`, it asks for no summary. `count` is a whole number from 1, else a
 * `ConfigurationError`.
 *
 * @example
 * ```ts
 * const agent = createAgent({ provider, model: 'gpt-4o-mini', tools, stopWhen: stepCountIs(3) });
 * ```
 * @param count How many iterations the turn may run.
 * @return The condition.
 */
export function stepCountIs(count: number): StopCondition {
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
    throw new ConfigurationError(`stepCountIs needs a whole number of iterations from 1 (got ${typeof count === 'number' ? count : typeof count}).`);
  }
  return (state) => state.iteration >= count;
}
