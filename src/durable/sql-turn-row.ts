import type { ColumnCipher } from './column-cipher.js';
import type { StoredTurn } from './turn-store.js';

/** A row of `rtl_turn` as the driver returns it. */
export interface TurnRow {
  turn_id: string;
  agent: string;
  conversation_id: string | null;
  status: StoredTurn['status'];
  input: StoredTurn['input'];
  snapshot: StoredTurn['snapshot'];
  pending: StoredTurn['pending'];
  outcome: StoredTurn['outcome'];
  attempt: number;
  owner: string | null;
  updated_at: string | number;
  lease_until: string | number | null;
}

/**
 * A turn as its `rtl_turn` row holds it: the conversation's columns opened with the store's
 * cipher (each bound to its column and turn), the counts and times as numbers.
 *
 * @example
 * ```ts
 * const turn = turnOf((await driver.query<TurnRow>('SELECT * FROM rtl_turn WHERE turn_id = $1', [id]))[0], cipher);
 * ```
 */
export const turnOf = (r: TurnRow, cipher: ColumnCipher): StoredTurn => ({
  turnId: r.turn_id,
  agent: r.agent,
  conversationId: r.conversation_id,
  status: r.status,
  input: cipher.open(r.input, `input:${r.turn_id}`),
  snapshot: cipher.open(r.snapshot, `snapshot:${r.turn_id}`),
  pending: r.pending,
  outcome: cipher.open(r.outcome, `outcome:${r.turn_id}`),
  attempt: Number(r.attempt),
  owner: r.owner,
  updatedAt: Number(r.updated_at),
  leaseUntil: r.lease_until === null ? null : Number(r.lease_until),
});
