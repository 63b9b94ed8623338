import { isObservable, type ObservableInput } from 'rxjs';
import type { PreparedCall } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';

/** Shared by the steps of one batch's preparation. */
export interface PrepContext {
  readonly resolved: ResolvedAgentExecution;
  readonly turn: TurnState;
  /** Dedup signatures seen in this batch. */
  readonly seen: Set<string>;
  /** Prompt-loop signatures seen in this batch. */
  readonly promptedInBatch: Set<string>;
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
