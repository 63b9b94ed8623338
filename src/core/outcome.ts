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
