import { isObservable, type ObservableInput } from 'rxjs';
import type { PreparedCall } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import type { IterationContext, PrepContext, ResolvedAgentExecution, TurnContext } from './resolved-execution.js';
import { addTo, SeenArguments } from './seen-arguments.js';

/**
 * A fresh preparation context for one batch of an iteration.
 *
 * @example
 * ```ts
 * const ctx = createPrepContext(iteration);
 * resolveTool(toPrepared(call), ctx);
 * ```
 */
export function createPrepContext(iteration: IterationContext): PrepContext {
  return new BatchPrepContext(iteration);
}

/**
 * Records in `ctx.seen` that the batch called `name` with arguments `key` (their `argsKey`);
 * false when it had that call already: a duplicate. A context from `createPrepContext` keeps
 * the record as a list until someone reads `seen` (see SeenArguments).
 *
 * @example
 * ```ts
 * if (!recordArguments(ctx, tool.name, JSON.stringify(call.args))) return { ...call, filled: { outcome: 'deduplicated', output: 'seen', success: false } };
 * ```
 */
export function recordArguments(ctx: PrepContext, name: string, key: string): boolean {
  return BatchPrepContext.record(ctx, name, key);
}

/** A class whose collections are made on first use: most batches need one of the four, or none. */
class BatchPrepContext implements PrepContext {
  readonly resolved: ResolvedAgentExecution;
  readonly turn: TurnContext;
  #seen: SeenArguments | undefined = undefined;
  #promptedInBatch: Set<string> | undefined = undefined;
  #promptSignatureBySlot: Map<number, string> | undefined = undefined;
  #approved: Set<number> | undefined = undefined;

  constructor(readonly iteration: IterationContext) {
    this.resolved = iteration.resolved;
    this.turn = iteration.turn;
  }

  get seen(): Map<string, Set<string>> {
    return (this.#seen ??= new SeenArguments()).asMap();
  }

  /** See `recordArguments`. */
  static record(ctx: PrepContext, name: string, key: string): boolean {
    if (!(ctx instanceof BatchPrepContext)) return addTo(ctx.seen, name, key);
    return (ctx.#seen ??= new SeenArguments()).add(name, key);
  }

  get promptedInBatch(): Set<string> {
    return (this.#promptedInBatch ??= new Set());
  }

  get promptSignatureBySlot(): Map<number, string> {
    return (this.#promptSignatureBySlot ??= new Map());
  }

  get approved(): Set<number> {
    return (this.#approved ??= new Set());
  }
}

/**
 * True when a preparation step decided synchronously (it returned the call itself, not an
 * Observable, a promise or another ObservableInput).
 *
 * @example
 * ```ts
 * for (const step of steps) {
 *   const next = step(call, ctx);
 *   if (isImmediate(next)) call = next;
 * }
 * ```
 */
export const isImmediate = (value: PreparedCall | ObservableInput<PreparedCall | TurnEvent>): value is PreparedCall =>
  !isObservable(value) && typeof (value as PromiseLike<unknown>).then !== 'function' && typeof (value as PreparedCall).slot === 'number';
