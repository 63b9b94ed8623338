import type { PreparedCall } from '../core/calls.js';
import type { Ingress } from '../core/ingress.js';
import type { ToolContext } from '../core/tool.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { switchModel } from '../context/switch-model.js';

/**
 * What a running tool sees of its slot (its `ctx`): `signal`, `callId`, `ingress`,
 * `conversationId` and `switchModel`. The signal is made on first read, or when the slot
 * closes (`close`), so a tool that first reads it after its slot closed still sees it aborted.
 *
 * @example
 * ```ts
 * const ctx = new SlotContext(it, call);
 * tool.execute(call.args, ctx);
 * ctx.close(); // the slot was torn down: the signal aborts, however late the tool reads it
 * ```
 */
export class SlotContext implements ToolContext {
  readonly #it: IterationContext;
  readonly #call: PreparedCall;
  #controller: AbortController | undefined;

  constructor(it: IterationContext, call: PreparedCall) {
    this.#it = it;
    this.#call = call;
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
}
