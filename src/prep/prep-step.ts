import { isObservable, type ObservableInput } from 'rxjs';
import type { PreparedCall } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';

/** Shared by the steps of one batch's preparation. */
export interface PrepContext {
  readonly resolved: ResolvedAgentExecution;
  readonly turn: TurnState;
  /** Dedup guard: per tool name, the key-sorted arguments (`argsKey`) of the calls seen in this batch. */
  readonly seen: Map<string, Set<string>>;
  /** Prompt-loop signatures seen in this batch. */
  readonly promptedInBatch: Set<string>;
  /** Prompt-loop signature of each guarded slot, so the gate can mark it approved. */
  readonly promptSignatureBySlot: Map<number, string>;
  /**
   * Slots the approval gate approved (an operator's yes/always, or policy); the marker restores
   * to true only for these. Policy approvals are recorded for marker tools only.
   */
  readonly approved: Set<number>;
}


/**
 * A fresh context for one batch.
 *
 * @example
 * ```ts
 * const ctx = createPrepContext(resolved, turn);
 * ```
 */
export function createPrepContext(resolved: ResolvedAgentExecution, turn: TurnState): PrepContext {
  return { resolved, turn, seen: new Map(), promptedInBatch: new Set(), promptSignatureBySlot: new Map(), approved: new Set() };
}

/**
 * One preparation step: returns the call (changed or not, or `filled`), directly when it can
 * decide at once, or as an ObservableInput when it must wait (a hook, an approval prompt).
 * Steps after a call is filled are skipped.
 */
export type PrepStep = (call: PreparedCall, ctx: PrepContext) => PreparedCall | ObservableInput<PreparedCall>;

/** True when a step decided synchronously. */
export const isImmediate = (value: PreparedCall | ObservableInput<PreparedCall>): value is PreparedCall =>
  !isObservable(value) && typeof (value as PromiseLike<unknown>).then !== 'function' && typeof (value as PreparedCall).slot === 'number';
