import { isObservable, type ObservableInput } from 'rxjs';
import type { PreparedCall } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import type { IterationContext, PrepContext } from './resolved-execution.js';

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
  return {
    resolved: iteration.resolved,
    turn: iteration.turn,
    iteration,
    seen: new Map(),
    promptedInBatch: new Set(),
    promptSignatureBySlot: new Map(),
    approved: new Set(),
  };
}

/**
 * True when a preparation step decided synchronously (it returned the call itself, not an
 * Observable, a promise or another ObservableInput).
 *
 * @example
 * ```ts
 * const next = step(call, ctx);
 * if (isImmediate(next)) call = next;
 * ```
 */
export const isImmediate = (value: PreparedCall | ObservableInput<PreparedCall | TurnEvent>): value is PreparedCall =>
  !isObservable(value) && typeof (value as PromiseLike<unknown>).then !== 'function' && typeof (value as PreparedCall).slot === 'number';
