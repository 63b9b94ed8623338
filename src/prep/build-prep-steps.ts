import type { AgentConfig } from '../turn/create-agent.js';
import { defaultPrepSteps } from './prepare-calls.js';
import type { PrepStep } from './prep-step.js';

/**
 * The preparation pipeline for an agent's configuration, built once per agent.
 *
 * @example
 * ```ts
 * const steps = buildPrepSteps(config);
 * ```
 */
export function buildPrepSteps(_config: AgentConfig): readonly PrepStep[] {
  return defaultPrepSteps;
}
