import type { DoneReason } from '../observe/events.js';

/** What one iteration decided: run another, or end the turn. */
export type IterationStep =
  | { readonly kind: 'next' }
  | { readonly kind: 'done'; readonly text: string; readonly reason: DoneReason };

export const NEXT: IterationStep = Object.freeze({ kind: 'next' });

export const doneStep = (text: string, reason: DoneReason): IterationStep => ({ kind: 'done', text, reason });
