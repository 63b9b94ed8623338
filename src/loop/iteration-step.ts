import type { ApprovalRequest } from '../core/approval-request.js';
import type { DoneReason } from '../core/events.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';

/** What one iteration decided: run another from `snapshot`, or end the turn with it. */
export type IterationStep =
  | { readonly kind: 'next'; readonly snapshot: TurnSnapshot }
  | {
      readonly kind: 'done';
      readonly snapshot: TurnSnapshot;
      readonly text: string;
      readonly reason: DoneReason;
      /** When 'paused': the approval requests waiting. */
      readonly pending?: readonly ApprovalRequest[];
      /** The validated answer, when the turn asked for structured output and ended 'final'. */
      readonly object?: unknown;
    };

/**
 * Another iteration, from `snapshot`.
 *
 * @example
 * ```ts
 * return of(nextStep(snapshot));
 * ```
 */
export const nextStep = (snapshot: TurnSnapshot): IterationStep => ({ kind: 'next', snapshot });

/**
 * The end of the turn.
 *
 * @example
 * ```ts
 * return of(doneStep(snapshot, answer, 'final'));
 * ```
 */
export const doneStep = (snapshot: TurnSnapshot, text: string, reason: DoneReason): IterationStep => ({ kind: 'done', snapshot, text, reason });

/** True for an iteration step (not an event). */
export const isIterationStep = (value: object): value is IterationStep => typeof (value as IterationStep).kind === 'string';
