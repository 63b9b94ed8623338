import type { Tracer } from '@opentelemetry/api';
import { defer, lastValueFrom, type Observable } from 'rxjs';
import type { z, ZodType } from 'zod';
import type { ApprovalPort } from '../approval/approval-port.js';
import { ConfigurationError } from '../core/errors.js';
import { NO_ITEMS } from '../core/no-items.js';
import type { DoneReason, ToolObserver, TurnEvent, TurnEventOf } from '../core/events.js';
import { guardedLogger, noopLogger, type Logger } from '../observe/logger.js';
import type { AgentHooks } from '../core/hooks.js';
import { buildPrepSteps } from '../prep/build-prep-steps.js';
import type { ModelProvider } from '../provider/provider.js';
import type { ActivatedToolSet } from '../registry/activated-tool-set.js';
import type { ActivationStore } from '../registry/activation-store.js';
import { resolveToolScope } from '../registry/agent-tool-scope.js';
import type { FilterGroup } from '../registry/filter-group.js';
import type { RiskProfile } from '../registry/risk-profile.js';
import type { ToolBundle } from '../registry/tool-bundle.js';
import type { ReceiptGenerator } from '../results/receipts.js';
import type { Tool } from '../core/tool.js';
import { defaultClock, defaultIds, type Clock } from '../core/clock.js';
import { resolveKnobs, type KnobsInput } from '../core/knobs.js';
import { loopControlOf, type LoopControlOptions } from '../core/loop-control.js';
import type { ResolvedAgentExecution } from '../context/resolved-execution.js';
import { runQuietLoop, runToolLoop } from '../loop/run-tool-loop.js';

import { resumeTurn, type ResumeOptions } from '../loop/resume-turn.js';
import { snapshotKeyOf } from '../loop/seal-snapshot.js';
import { readThrown } from '../core/read-thrown.js';
import type { Ingress } from '../core/ingress.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import { instrumentRun } from './instrument-run.js';
import { warnWithoutApproval } from './warn-without-approval.js';
import type { TelemetryOptions } from '../observe/telemetry-options.js';
import type { TurnInput } from '../core/turn-input.js';

/**
 * Everything an agent is built from. Only `provider`, `model` and `tools` are required.
 * `stopWhen` and `prepareIteration` (loop control) apply to every turn; a turn's own come after them.
 */
export interface AgentConfig extends LoopControlOptions {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly tools: readonly Tool[];
  /** The agent's alias, for correlation and span names. Default 'agent'. */
  readonly name?: string;
  /** System instructions sent first in every request (never part of the returned history). */
  readonly instructions?: string;
  readonly temperature?: number;
  /**
   * No approval = no gate: every call runs without a prompt (`createAgent` then logs one warning
   * naming the agent's `'exec'`, `'write'` and `'egress'` tools, undeclared risks included).
   */
  readonly approval?: ApprovalPort;
  readonly hooks?: AgentHooks;
  readonly observers?: readonly ToolObserver[];
  readonly knobs?: KnobsInput;
  readonly receipts?: ReceiptGenerator;
  readonly logger?: Logger;
  /** Traces every turn (`invoke_agent`, `chat`, `execute_tool` spans). */
  readonly tracer?: Tracer;
  /** Opt-in content capture for spans (tool arguments and results, scrubbed). */
  readonly telemetry?: TelemetryOptions;
  readonly clock?: Clock;
  readonly ids?: () => string;
  /** Names no run may see or execute (exact names for specs; trimmed, case-insensitive for calls). */
  readonly excludedTools?: readonly string[];
  /** Named sets of tools added to `tools`; risk profiles and runs can select them as `bundle:{name}`. */
  readonly bundles?: readonly ToolBundle[];
  /** Which tools the agent may have at all (allowed / excluded selectors, declared risks). */
  readonly riskProfile?: RiskProfile;
  /** Tools hidden behind `tool_search` until activated (typically `mcpTools(...)`). */
  readonly deferredTools?: readonly Tool[];
  /** Decide which MCP tools a turn exposes; built-in tools are not affected. */
  readonly filterGroups?: readonly FilterGroup[];
  /**
   * Where deferred tools activated by `tool_search` live. Default: a new `ActivationStore`, one
   * set per conversation (`TurnInput.conversationId`; a turn without one has its own), at most
   * 1000 conversations. An `ActivationStore` shared with a sub-agent grants it the activations of
   * the conversation its turn names; an `ActivatedToolSet` is shared by every conversation.
   */
  readonly activated?: ActivatedToolSet | ActivationStore;
  readonly onModelSwitch?: (from: string, to: string) => void;
  /**
   * The key a parked turn's snapshot is sealed with (HMAC-SHA256; at least 16 bytes, a string is
   * read as UTF-8). Default: a random key made once per process, so a snapshot resumes only in the
   * process that parked it; every process of a deployment that resumes another's turns needs the
   * same key. The key is never part of a snapshot.
   */
  readonly snapshotKey?: string | Uint8Array;
}

// shared by every agent configured without hooks: an agent is often made per turn
const NO_HOOKS: AgentHooks = Object.freeze({});

/** How a turn ended, for `agent.complete`. */
export type TurnOutcome = Omit<TurnEventOf<'done'>, 'type'>;

/**
 * How a turn with an output schema ended (`agent.complete({ …, output })`): when it ended
 * 'final', `object` is the validated answer, typed by the schema's output.
 */
export type StructuredOutcome<T> =
  | (Omit<TurnOutcome, 'reason' | 'object'> & { readonly reason: 'final'; readonly object: T })
  | (Omit<TurnOutcome, 'reason' | 'object'> & { readonly reason: Exclude<DoneReason, 'final'>; readonly object?: undefined });

export interface Agent {
  /** The stable bundle every turn of this agent runs with. */
  readonly resolved: ResolvedAgentExecution;
  /** A cold Observable of the turn's events; unsubscribing cancels. */
  run(input: TurnInput): Observable<TurnEvent>;
  /**
   * Runs the turn to its `done` event; rejects with the turn's ToolLoopError. On an agent without
   * a tracer or a logger nobody reads the other events, so the turn makes none of those that only
   * show it (`TurnContext.quiet`; observers are still told of every call): the same outcome for
   * less work. With `output` (a zod schema), a turn that ends 'final' has `object`, typed by the schema.
   */
  complete<S extends ZodType>(input: TurnInput & { readonly output: S }): Promise<StructuredOutcome<z.output<S>>>;
  complete(input: TurnInput): Promise<TurnOutcome>;
  /**
   * Continues a turn that parked at an approval (`reason: 'paused'`), here or in another process,
   * with a decision for each pending request; a snapshot that does not match fails closed with a
   * `SnapshotMismatchError` and runs nothing.
   */
  resume(snapshot: TurnSnapshot, options: ResumeOptions): Observable<TurnEvent>;
}

/**
 * Builds an agent: resolves the configuration once (registry, knobs, ports) into the bundle
 * every turn shares. Without `approval`, it warns once on the agent's logger when the agent has
 * tools that run code, write or send data out (`warnWithoutApproval`).
 *
 * @example
 * ```ts
 * const agent = createAgent({ provider, model: 'gpt-4o-mini', tools: [calculator] });
 * const { text } = await agent.complete({ message: 'What is 6 * 7?' });
 * ```
 */
export function createAgent(config: AgentConfig): Agent {
  if (!config.provider) throw new ConfigurationError('createAgent needs a provider.');
  if (!config.model) throw new ConfigurationError('createAgent needs a model name.');
  if (!Array.isArray(config.tools)) throw new ConfigurationError('createAgent needs tools: an array of tools ([] for none).');
  const toolScope = resolveToolScope(config);
  const resolved: ResolvedAgentExecution = Object.freeze({
    name: config.name ?? 'agent',
    provider: config.provider,
    model: config.model,
    instructions: config.instructions,
    temperature: config.temperature,
    registry: toolScope.registry,
    excluded: toolScope.excluded,
    toolScope,
    activations: toolScope.activations,
    approval: config.approval,
    hooks: config.hooks ?? NO_HOOKS,
    observers: config.observers ?? NO_ITEMS,
    knobs: resolveKnobs(config.knobs),
    receipts: config.receipts,
    logger: guardedLogger(config.logger ?? noopLogger),
    tracer: config.tracer,
    telemetry: config.telemetry,
    clock: config.clock ?? defaultClock,
    ids: config.ids ?? defaultIds,
    prepSteps: buildPrepSteps(config),
    onModelSwitch: config.onModelSwitch,
    loopControl: loopControlOf(config, (message) => new ConfigurationError(message)),
    snapshotKey: snapshotKeyOf(config.snapshotKey),
  });
  // an agent is often made per turn: nothing to look at when nobody reads the warning
  if (!resolved.approval && resolved.logger !== noopLogger) warnWithoutApproval(resolved.name, toolScope, resolved.logger);
  // complete() keeps only the done event: with nothing else reading events (observers are told
  // of calls directly), none is made that only shows the turn
  const completeLoop = !resolved.tracer && resolved.logger === noopLogger ? runQuietLoop : runToolLoop;
  return {
    resolved,
    run: (input) => instrumentRun(resolved, input, runToolLoop),
    // a promise chain, not an async function (bench/RESULTS.md, "Choices in src/ made for speed")
    complete: ((input: TurnInput): Promise<TurnOutcome> => {
      try {
        return lastValueFrom(instrumentRun(resolved, input, completeLoop)).then(toOutcome);
      } catch (err) {
        return Promise.reject(err);
      }
    }) as Agent['complete'],
    resume: (snapshot, options) =>
      defer(() => {
        const ingress = readThrown(snapshot, 'ingress'); // any value: resume's check refuses what is not a snapshot
        const input: TurnInput = { message: '', ...(isIngress(ingress) ? { ingress } : {}) };
        return instrumentRun(resolved, input, (r) => resumeTurn(r, snapshot, options));
      }),
  };
}

/** `agent.complete`'s outcome: the `done` event without its type (snapshot and pending only when paused, object only when the answer was structured). */
function toOutcome(done: TurnEvent): TurnOutcome {
  if (done.type !== 'done') throw new ConfigurationError('The turn ended without a done event.');
  const { text, reason, history, iterations, usage, snapshot, pending } = done;
  if (reason === 'paused') return { text, reason, history, iterations, usage, snapshot, pending };
  return 'object' in done ? { text, reason, history, iterations, usage, object: done.object } : { text, reason, history, iterations, usage };
}

/** A snapshot's ingress (its `channel` optional, as on the way in). */
const isIngress = (value: unknown): value is Ingress => {
  const channel = typeof value === 'object' && value !== null ? readThrown(value, 'channel') : null;
  return channel === undefined || typeof channel === 'string';
};
