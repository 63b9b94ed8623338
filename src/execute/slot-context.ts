import type { Subscriber } from 'rxjs';
import type { PreparedCall } from '../core/calls.js';
import { innerEvent, type NestedEvent, type TurnEvent } from '../core/events.js';
import type { Ingress } from '../core/ingress.js';
import type { ToolContext } from '../core/tool.js';
import type { IterationContext, TurnContext } from '../context/resolved-execution.js';
import { switchModel } from '../context/switch-model.js';
import { scrubCredentials } from '../results/scrub.js';
import { scrubValue } from '../results/scrub-value.js';
import type { BatchRun } from './batch-run.js';
import type { HasParentCall, ParentCall, ParkedDelegation, ResumedDelegation } from './parent-call.js';

/**
 * What a running tool sees of its slot (its `ctx`): `signal`, `callId`, `ingress`,
 * `conversationId` and `switchModel`. The signal is made on first read, or when the slot
 * closes (`close`), so a tool that first reads it after its slot closed still sees it aborted.
 * Given the slot's subscriber, it is also the `ParentCall` of a tool that runs a sub-agent's
 * turn (`parentCallOf(ctx)`): its events nest into the slot's stream until the slot ends.
 *
 * @example
 * ```ts
 * const ctx = new SlotContext(it, call);
 * tool.execute(call.args, ctx);
 * ctx.close(); // the slot was torn down: the signal aborts, however late the tool reads it
 * ```
 */
export class SlotContext implements ToolContext, ParentCall, HasParentCall {
  readonly #it: IterationContext;
  readonly #call: PreparedCall;
  readonly #out: Subscriber<TurnEvent> | undefined;
  readonly #batch: BatchRun | undefined;
  #controller: AbortController | undefined;
  #parked = false;

  constructor(it: IterationContext, call: PreparedCall, out?: Subscriber<TurnEvent>, batch?: BatchRun) {
    this.#it = it;
    this.#call = call;
    this.#out = out;
    this.#batch = batch;
  }

  get callId(): string {
    return this.#call.id;
  }

  get ingress(): Ingress {
    return this.#it.turn.ingress;
  }

  get conversationId(): string | undefined {
    return this.#it.turn.conversationId;
  }

  /** Aborts when the slot closes before the tool answered (cancellation, unsubscribing, its deadline). */
  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  switchModel(model: string): void {
    switchModel(this.#it, model);
  }

  /** Closes the slot's signal: aborted from now on (with `reason`, if given), even for a tool that has not read it yet. */
  close(reason?: unknown): void {
    (this.#controller ??= new AbortController()).abort(reason);
  }

  parentCall(): ParentCall | undefined {
    return this.#out ? this : undefined;
  }

  get turn(): TurnContext {
    return this.#it.turn;
  }

  get toolName(): string {
    return this.#call.tool?.name ?? this.#call.name;
  }

  nest(agent: string, event: NestedEvent): void {
    const out = this.#out;
    if (out === undefined || out.closed) return;
    if (this.#it.turn.quiet === true && !carriesUsage(event)) return;
    const nested: TurnEvent = {
      type: 'delegate',
      iteration: this.#it.iteration,
      parentCallId: this.#call.id,
      agent: scrubCredentials(agent),
      event: scrubValue(event),
    };
    out.next(nested);
  }

  onCancel(handler: () => void): () => void {
    return this.#batch ? this.#batch.onCancel(handler) : noop;
  }

  park(parked: ParkedDelegation): boolean {
    if (this.#batch === undefined || this.#out?.closed !== false) return false;
    this.#parked = this.#batch.park(this.#call.slot, parked);
    return this.#parked;
  }

  /** True once the call parked with its sub-agent (`park`): `runTool` ends its slot without a result. */
  get parked(): boolean {
    return this.#parked;
  }

  resumed(): ResumedDelegation | undefined {
    return this.#batch?.resumedAt(this.#call.slot);
  }
}

const noop = (): void => undefined;

/** A `usage` event, or one nested (at any depth) around one. */
const carriesUsage = (event: NestedEvent): boolean => innerEvent(event).type === 'usage';
