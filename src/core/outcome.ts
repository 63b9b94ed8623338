/** How a slot ended. */
export type SlotOutcome =
  | 'executed'
  | 'failed'
  | 'denied'
  | 'replaced'
  | 'hook-cancelled'
  | 'deduplicated'
  | 'interrupted'
  | 'unknown'
  | 'excluded'
  | 'invalid-arguments';

/** A finished slot as data. */
export interface SlotResultData {
  readonly slot: number;
  readonly id: string;
  readonly name: string;
  readonly outcome: SlotOutcome;
  readonly success: boolean;
  readonly content: string;
  readonly output: string;
  readonly durationMs: number;
  readonly receipt?: string;
}
