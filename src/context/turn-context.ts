import { TurnInputError } from '../core/errors.js';
import type { TurnIngress } from '../core/ingress.js';
import { loopControlOf, type LoopControl } from '../core/loop-control.js';
import { NO_ITEMS } from '../core/no-items.js';
import type { TurnInput } from '../core/turn-input.js';
import type { TurnJournal } from '../core/turn-journal.js';
import type { OutputSchema } from '../core/structured-output.js';
import { outputSchema } from '../tool/output-schema.js';
import { ActivatedToolSet } from '../registry/activated-tool-set.js';
import { effectiveTools, type EffectiveTools } from '../registry/effective-tools.js';
import { narrowedTools } from '../registry/narrowed-tools.js';
import { turnCancellation } from '../core/turn-cancellation.js';
import type { ResolvedAgentExecution, TurnContext } from './resolved-execution.js';

/**
 * The services of a new turn: its ingress (turn id and agent alias settled), cancellation from
 * `input.signal`, recalled memory, the activated deferred tools of its conversation (else its
 * own), the turn's tools, its output schema (`TurnInput.output`), and a queue for steering
 * messages. The turn's data (history, iteration, …) is its `TurnSnapshot` instead
 * (`startSnapshot`). `reactivate` names deferred tools active before (a resumed snapshot's
 * `activated`): the agent's own are activated again.
 *
 * @example
 * ```ts
 * const turn = createTurnContext(resolved, { message: 'hi', signal, conversationId: 'c1' });
 * const snapshot = startSnapshot(turn, { message: 'hi' });
 * ```
 */
export function createTurnContext(
  resolved: ResolvedAgentExecution,
  input: TurnInput,
  ingress: TurnIngress = turnIngress(resolved, input),
  reactivate: readonly string[] = [],
  sealSequence = 1,
): TurnContext {
  return newTurn(resolved, input, ingress, reactivate, false, sealSequence);
}

/**
 * `createTurnContext` for a turn whose events nobody reads (`TurnContext.quiet`): what
 * `agent.complete` runs on an agent without a tracer or a logger.
 *
 * @example
 * ```ts
 * const turn = createQuietTurnContext(resolved, { message: 'hi' });
 * ```
 */
export function createQuietTurnContext(resolved: ResolvedAgentExecution, input: TurnInput): TurnContext {
  return newTurn(resolved, input, turnIngress(resolved, input), NO_ITEMS, true, 1);
}

function newTurn(
  resolved: ResolvedAgentExecution,
  input: TurnInput,
  ingress: TurnIngress,
  reactivate: readonly string[],
  quiet: boolean,
  sealSequence: number,
): TurnContext {
  const activated = resolved.activations.forScope({ conversationId: input.conversationId, turnId: ingress.turnId });
  for (const name of reactivate) {
    const tool = resolved.toolScope.deferred.find((t) => t.name === name);
    if (tool) activated.activate(tool);
  }
  return new RunningTurn(resolved, input, ingress, activated, quiet, sealSequence);
}

/**
 * The turn's ingress: the input's (channel `cli` when it names none) with its `turnId` (else a new id) and
 * `agentAlias` (else the agent's name). Idempotent, so telemetry can settle it before the turn
 * starts and the turn keeps the same id.
 *
 * @example
 * ```ts
 * const { turnId } = turnIngress(resolved, input);
 * ```
 */
export function turnIngress(resolved: { readonly name: string; readonly ids: () => string }, input: Pick<TurnInput, 'ingress'>): TurnIngress {
  const ingress = input.ingress;
  // literals, not `{ ...ingress, turnId, agentAlias }` (bench/RESULTS.md, "Choices in src/ made for speed")
  if (ingress === undefined) return { channel: 'cli', turnId: resolved.ids(), agentAlias: resolved.name };
  const out: { -readonly [K in keyof TurnIngress]: TurnIngress[K] } = {
    channel: ingress.channel ?? 'cli', // an ingress without a channel comes in as a turn without one does
    turnId: ingress.turnId ?? resolved.ids(),
    agentAlias: ingress.agentAlias ?? resolved.name,
  };
  if (ingress.replyTarget !== undefined) out.replyTarget = ingress.replyTarget;
  if (ingress.parentAgentAlias !== undefined) out.parentAgentAlias = ingress.parentAgentAlias;
  return out;
}

/** A class, so all turn contexts have the same fields (bench/RESULTS.md, "Choices in src/ made for speed"). */
class RunningTurn implements TurnContext {
  readonly turnId: string;
  readonly conversationId?: string;
  readonly signal?: AbortSignal;
  readonly cancel$;
  readonly memory: readonly string[];
  readonly journal?: TurnJournal;
  readonly loopControl?: LoopControl;
  readonly output?: OutputSchema;
  #tools: EffectiveTools;
  readonly #steering: string[] = [];

  constructor(
    readonly resolved: ResolvedAgentExecution,
    input: TurnInput,
    readonly ingress: TurnIngress,
    readonly activated: ActivatedToolSet,
    readonly quiet: boolean,
    readonly sealSequence: number,
  ) {
    this.turnId = ingress.turnId;
    this.conversationId = input.conversationId;
    this.signal = input.signal;
    this.cancel$ = turnCancellation(input.signal);
    this.memory = input.memory ?? [];
    this.journal = input.journal;
    this.loopControl = loopControlOf(input, (message) => new TurnInputError(message), resolved.loopControl);
    this.output = input.output === undefined ? undefined : outputSchema(input.output);
    this.#tools = effectiveTools(resolved, input, activated);
  }

  cancelled(): boolean {
    return this.signal?.aborted === true;
  }

  get tools(): EffectiveTools {
    return this.#tools;
  }

  refreshTools(): EffectiveTools {
    return (this.#tools = this.#tools.refresh());
  }

  narrowTools(names: readonly string[]): EffectiveTools {
    return (this.#tools = narrowedTools(this.#tools, names));
  }

  /** Queues a steering message for the next iteration. */
  steer(message: string): void {
    this.#steering.push(message);
  }

  takeSteering(): string[] {
    return this.#steering.splice(0);
  }

  hasSteering(): boolean {
    return this.#steering.length > 0;
  }
}

/**
 * Queues a steering message on a turn made by `createTurnContext`: it joins history at the start
 * of the next iteration.
 *
 * @example
 * ```ts
 * steer(turn, 'Also check the weekend.');
 * ```
 */
export function steer(turn: TurnContext, message: string): void {
  if (turn instanceof RunningTurn) turn.steer(message);
}
