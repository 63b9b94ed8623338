import type { AgentHooks } from '../core/hooks.js';
import type { KnobsInput } from '../core/knobs.js';
import { approvalGate } from './approval-gate.js';
import { beforeToolCallHooks } from './before-tool-call-hooks.js';
import { channelDefaults } from './channel-defaults.js';
import { clearApprovedMarker } from './clear-approved-marker.js';
import { dedupGuard } from './dedup-guard.js';
import type { PrepStep } from '../runtime/resolved-execution.js';
import { promptLoopGuard } from './prompt-loop-guard.js';
import { resolveTool } from './resolve-tool.js';
import { restoreApprovedMarker } from './restore-approved-marker.js';
import { validateArgs } from './validate-args.js';

/** What of an agent's configuration decides its preparation steps. */
export interface PrepConfig {
  readonly hooks?: AgentHooks;
  readonly approval?: unknown;
  readonly knobs?: Pick<KnobsInput, 'dedupEnabled'>;
}

/**
 * The preparation pipeline for an agent's configuration, built once per agent: the steps of
 * `defaultPrepSteps` in the same order, without those the configuration makes idle (no hooks,
 * no approval manager, dedup disabled). Marker and channel steps stay: tools activated later
 * (deferred MCP tools) may need them, and they cost one property read per call.
 *
 * @example
 * ```ts
 * const steps = buildPrepSteps(config);
 * ```
 */
export function buildPrepSteps(config: PrepConfig): readonly PrepStep[] {
  const hooks = (config.hooks?.beforeToolCall?.length ?? 0) > 0;
  const approval = Boolean(config.approval);
  const dedup = config.knobs?.dedupEnabled !== false;
  // eight possible pipelines, each built once and shared: an agent is often made per turn
  const key = (hooks ? 4 : 0) + (approval ? 2 : 0) + (dedup ? 1 : 0);
  return (built[key] ??= stepsFor(hooks, approval, dedup));
}

const built: (readonly PrepStep[] | undefined)[] = [];

function stepsFor(hooks: boolean, approval: boolean, dedup: boolean): readonly PrepStep[] {
  const steps: PrepStep[] = [];
  if (hooks) steps.push(beforeToolCallHooks);
  steps.push(resolveTool, channelDefaults, clearApprovedMarker, validateArgs);
  if (approval) steps.push(promptLoopGuard, approvalGate);
  steps.push(restoreApprovedMarker);
  if (dedup) steps.push(dedupGuard);
  const shared = Object.freeze([...steps]);
  twins.set(shared, steps);
  return shared;
}

/**
 * False for a pipeline from `buildPrepSteps` without the approval gate, the only step that parks
 * a call: `prepareCalls` leaves `untilParked` out for it, a stage less per batch. True for any
 * other array (a step of its own may park a call).
 *
 * @example
 * ```ts
 * mayPark(buildPrepSteps({})); // false
 * mayPark([resolveTool, approvalGate]); // true
 * ```
 */
export function mayPark(steps: readonly PrepStep[]): boolean {
  const twin = twins.get(steps);
  return twin === undefined || twin.includes(approvalGate);
}

/**
 * The steps as an array V8 reads at full speed: a pipeline from `buildPrepSteps` is frozen
 * (agents share it), and optimized code reads a frozen array's elements through a generic
 * keyed load, ~70 instructions a step for each call (bench/RESULTS.md, "Session 12"); its
 * unfrozen twin, which never leaves this module but through here, is read instead. Any other
 * array comes back as it is.
 *
 * @example
 * ```ts
 * const steps = readableSteps(resolved.prepSteps);
 * for (const step of steps) call = step(call, ctx);
 * ```
 */
export function readableSteps(steps: readonly PrepStep[]): readonly PrepStep[] {
  return twins.get(steps) ?? steps;
}

/** Each shared pipeline's unfrozen twin (at most eight). */
const twins = new Map<readonly PrepStep[], readonly PrepStep[]>();
