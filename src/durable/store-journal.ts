import type { TurnJournal } from '../core/turn-journal.js';
import type { SlotState, TurnSnapshot } from '../core/turn-snapshot.js';
import { sealSnapshot, snapshotKeyOf } from '../loop/seal-snapshot.js';
import { TurnTakenOverError } from './durable-errors.js';
import type { TurnStore } from './turn-store.js';

/**
 * A `TurnJournal` that keeps a turn's checkpoint in its store row: the prepared round's snapshot,
 * then each slot as it starts (`running`) and finishes (`done`). Writes go one after the other
 * (each writes the newest state), fenced by the worker's `attempt`: once another worker claimed
 * the turn, every write fails with `TurnTakenOverError` and the loop stops before anything else runs.
 * A checkpoint changed by a slot is sealed again with the agent's `snapshotKey` (same sequence).
 * Each approval decision goes to the store's audit log (and an `always` to its conversation's
 * allow-list) under the tool's real name, as the request has it — events show it scrubbed; the
 * audit entry is fenced by `attempt` too, so a worker taken over audits nothing more.
 *
 * @example
 * ```ts
 * agent.run({ message, journal: storeJournal(store, turnId, claimed.attempt, agent.resolved.snapshotKey) });
 * ```
 */
export function storeJournal(store: TurnStore, turnId: string, attempt: number, snapshotKey = snapshotKeyOf(undefined)): TurnJournal {
  let checkpoint: TurnSnapshot | undefined;
  let chain: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    const snapshot = checkpoint;
    chain = chain.then(async () => {
      if (!(await store.updateTurn(turnId, attempt, { snapshot }))) throw new TurnTakenOverError(turnId);
    });
    return chain;
  };
  const setSlot = (slot: number, state: (old: SlotState) => SlotState): Promise<void> => {
    const batch = checkpoint?.batch;
    if (!checkpoint || !batch) return chain;
    const slots = batch.slots.slice();
    slots[slot] = state(slots[slot]);
    const changed = { ...checkpoint, batch: { ...batch, slots } };
    checkpoint = changed.seal ? sealSnapshot(changed, snapshotKey, changed.seal.sequence) : changed;
    return write();
  };
  return {
    prepared(snapshot) {
      checkpoint = snapshot;
      return write();
    },
    started: (slot) => setSlot(slot, (old) => (old.state === 'ready' ? { ...old, state: 'running' } : old)),
    finished: (result) => setSlot(result.slot, () => ({ state: 'done', result })),
    async decided(request, { decision, decidedBy, byOperator }) {
      const conversationId = request.conversationId ?? null;
      const record = { turnId, conversationId, requestId: request.requestId, toolName: request.toolName, decision, decidedBy, byOperator, at: Date.now() };
      if (!(await store.appendAudit(record, attempt))) throw new TurnTakenOverError(turnId);
      if (decision === 'always' && conversationId !== null) await store.allow(conversationId, request.toolName);
    },
  };
}
