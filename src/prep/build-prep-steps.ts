import type { AgentHooks } from '../core/hooks.js';
import type { KnobsInput } from '../core/knobs.js';
import type { Tool } from '../core/tool.js';
import { approvalGate } from './approval-gate.js';
import { beforeToolCallHooks } from './before-tool-call-hooks.js';
import { channelDefaults } from './channel-defaults.js';
import { clearApprovedMarker } from './clear-approved-marker.js';
import { dedupGuard } from './dedup-guard.js';
import type { PrepStep } from '../context/resolved-execution.js';
import { promptLoopGuard } from './prompt-loop-guard.js';
import { resolveTool } from './resolve-tool.js';
import { restoreApprovedMarker } from './restore-approved-marker.js';
import { validateArgs } from './validate-args.js';

/** What of an agent's configuration decides its preparation steps. */
export interface PrepConfig {
  readonly hooks?: AgentHooks;
  readonly approval?: unknown;
  readonly knobs?: Pick<KnobsInput, 'dedupEnabled'>;
  /**
   * The agent's tools; with `bundles` and `deferredTools`, every tool its turns can call (a tool
   * added to its registry later stays unknown to them). Without it, any tool may come.
   */
  readonly tools?: readonly Tool[];
  readonly bundles?: readonly { readonly tools: readonly Tool[] }[];
  readonly deferredTools?: readonly Tool[];
  /** Activations the agent is given (`AgentConfig.activated`): their tools may be another agent's. */
  readonly activated?: unknown;
}

/**
 * The preparation pipeline for an agent's configuration, built once per agent: the steps of
 * `defaultPrepSteps` in the same order, without those the configuration makes idle (no hooks,
 * no approval manager, dedup disabled, and the marker and channel steps when none of the
 * agent's tools, deferred ones included, has an approval marker or a channel argument). Each
 * idle step would still cost a call per tool call (bench/RESULTS.md, "Choices in src/ made for speed").
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
  // 32 possible pipelines, each built once and shared: an agent is often made per turn
  const key = (hooks ? HOOKS : 0) | (approval ? APPROVAL : 0) | (dedup ? DEDUP : 0) | toolSteps(config);
  return (built[key] ??= stepsFor(key));
}

const built: (readonly PrepStep[] | undefined)[] = [];

// A pipeline's key: one bit for each feature that brings steps.
const HOOKS = 16;
const APPROVAL = 8;
const DEDUP = 4;
/** A tool has an approval marker: what `clearApprovedMarker` and `restoreApprovedMarker` act on. */
const MARKER = 2;
/** A tool has a channel argument: what `channelDefaults` acts on. */
const CHANNEL = 1;

/**
 * Which of the marker and channel steps the agent's turns may need: those whose kind of tool
 * the agent has, or both when its turns may call a tool it was not given (its tools unknown, or
 * activations given to it: shared with another agent, or a set of tools of their own). An idle
 * step costs a call per tool call; a missing one would let an approval marker through, so any
 * doubt keeps it. One pass, no closures: an agent is often made per turn.
 */
function toolSteps(config: PrepConfig): number {
  if (config.tools === undefined || config.activated !== undefined) return MARKER | CHANNEL;
  let found = stepsOf(config.tools, 0);
  if (config.deferredTools !== undefined) found = stepsOf(config.deferredTools, found);
  if (config.bundles !== undefined) for (const bundle of config.bundles) found = stepsOf(bundle.tools, found);
  return found;
}

function stepsOf(tools: readonly Tool[], found: number): number {
  for (let i = 0; i < tools.length; i++) {
    if (tools[i].approvalMarker) found |= MARKER;
    if (tools[i].channelArg !== undefined) found |= CHANNEL;
  }
  return found;
}

function stepsFor(key: number): readonly PrepStep[] {
  const steps: PrepStep[] = [];
  if (key & HOOKS) steps.push(beforeToolCallHooks);
  steps.push(resolveTool);
  if (key & CHANNEL) steps.push(channelDefaults);
  if (key & MARKER) steps.push(clearApprovedMarker);
  steps.push(validateArgs);
  if (key & APPROVAL) steps.push(promptLoopGuard, approvalGate);
  if (key & MARKER) steps.push(restoreApprovedMarker);
  if (key & DEDUP) steps.push(dedupGuard);
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
 * The steps to loop over: for a pipeline from `buildPrepSteps`, which is frozen (agents share
 * it), its unfrozen twin, which never leaves this module but through here; an unfrozen array is
 * faster to read (bench/RESULTS.md, "Choices in src/ made for speed"). Any other array
 * comes back as it is.
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

/** Each shared pipeline's unfrozen twin (at most 32). */
const twins = new Map<readonly PrepStep[], readonly PrepStep[]>();
