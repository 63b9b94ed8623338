import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SnapshotReplayedError, SnapshotTamperedError, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { durableAgent } from '../../src/durable/index.js';
import { durableBackendsForFile, storeBackends } from './shared-pglite.js';
import { worldAgent } from './world.js';

type Done = TurnEventOf<'done'>;
const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const failure = (events$: import('rxjs').Observable<TurnEvent>) => collect(events$).then(() => undefined, (err: unknown) => err);

const backends = storeBackends(durableBackendsForFile());

describe.each(backends)('a parked snapshot resumes once through the store (%s)', (_, open) => {
  it('put back into the store after its resume, the old snapshot is refused on another instance: SnapshotReplayedError, nothing runs twice', async () => {
    const store = await open();
    try {
      const ran: string[] = [];
      const a = durableAgent(worldAgent({ ran }), { store, owner: 'a' });
      const parked = (await collect(a.run({ message: 'note this', conversationId: `claim-${Math.random()}` }))).at(-1) as Done;
      const turnId = parked.snapshot!.turnId;
      const before = (await store.getTurn(turnId))!;
      expect(before.status).toBe('parked');
      await a.decide(turnId, parked.pending![0].requestId, 'yes', 'alice');
      const finished = (await collect(a.continue(turnId))).at(-1) as Done;
      expect(finished.reason).toBe('final');
      expect(ran.filter((r) => r.startsWith('write'))).toEqual(['write hello']);
      // the sequence is claimed in the store, for every instance
      expect(await store.claimSnapshot(turnId, before.snapshot!.seal!.sequence)).toBe(false);

      // someone with write access to the store puts the parked row back as it was
      const now = (await store.getTurn(turnId))!;
      expect(await store.updateTurn(turnId, now.attempt, { status: 'parked', snapshot: before.snapshot, pending: before.pending })).toBe(true);
      const otherRan: string[] = [];
      const b = durableAgent(worldAgent({ ran: otherRan }), { store, owner: 'b' });
      const err = await failure(b.continue(turnId));
      expect(err).toBeInstanceOf(SnapshotReplayedError);
      expect(otherRan).toEqual([]);
      expect((await store.getTurn(turnId))!.status).toBe('failed');
    } finally {
      await store.close();
    }
  });

  it('a stored snapshot changed in the row fails closed on resume (SnapshotTamperedError), and nothing runs', async () => {
    const store = await open();
    try {
      const ran: string[] = [];
      const a = durableAgent(worldAgent({ ran }), { store });
      const parked = (await collect(a.run({ message: 'note this', conversationId: `tamper-${Math.random()}` }))).at(-1) as Done;
      const turnId = parked.snapshot!.turnId;
      const row = (await store.getTurn(turnId))!;
      const slots = row.snapshot!.batch!.slots.map((s) => (s.state === 'awaiting-approval' ? { ...s, args: { text: 'rm -rf /' } } : s));
      await store.updateTurn(turnId, row.attempt, { snapshot: { ...row.snapshot!, batch: { ...row.snapshot!.batch!, slots } } });
      await a.decide(turnId, parked.pending![0].requestId, 'yes', 'alice');
      const ranBefore = ran.length;
      expect(await failure(a.continue(turnId))).toBeInstanceOf(SnapshotTamperedError);
      expect(ran.length).toBe(ranBefore);
      expect((await store.getTurn(turnId))!.status).toBe('failed');
    } finally {
      await store.close();
    }
  });
});
