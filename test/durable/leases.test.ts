import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer, TurnEvent, TurnEventOf } from '../../src/index.js';
import { durableAgent, TurnTakenOverError, type TurnStore } from '../../src/durable/index.js';
import { durableBackendsForFile, instanceBackends } from './shared-pglite.js';
import { slotStates, untilTurn } from './until-turn.js';
import { worldAgent } from './world.js';

/**
 * Leases: a live worker renews the lease of its turn, so nobody takes it over however long its
 * tool runs; a dead worker's lease runs out and another worker takes the turn over; a worker
 * whose turn was taken writes nothing more. Time here is the stores' clock (`now`), moved by the
 * test, except where a live worker's real heartbeat is the point.
 */
type Done = TurnEventOf<'done'>;
const collect = (events$: Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const input = (turnId: string) => ({ message: 'hi', ingress: { channel: 'cli', turnId } });
const never = (_key: string, signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

/** A clock the test moves. */
function testClock(start = 1_700_000_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

/** The store, resolving `renewals(n)` once it renewed a lease `n` times. */
function countingRenewals(store: TurnStore) {
  let count = 0;
  const waiters = new Set<{ n: number; resolve: () => void }>();
  const counted: TurnStore = {
    ...store,
    async renewLease(turnId, attempt, leaseMs) {
      const held = await store.renewLease(turnId, attempt, leaseMs);
      count += 1;
      for (const w of [...waiters]) if (count >= w.n) (waiters.delete(w), w.resolve());
      return held;
    },
  };
  const renewals = (n: number) => (count >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.add({ n, resolve })));
  return { store: counted, renewals };
}

const backends = instanceBackends(durableBackendsForFile());

describe.each(backends)('leases on %s', (_name, open) => {
  it('a claim that waits for expiry takes a running turn only once its lease ran out; the old holder can no longer renew it', async () => {
    const clock = testClock();
    const [store] = await open(clock.now);
    try {
      const created = await store.createTurn({ turnId: 'lease', agent: 'a', input: input('lease'), status: 'running', owner: 'w1', leaseMs: 1000 });
      expect(created.leaseUntil).toBe(clock.now() + 1000);
      expect(await store.claimTurn('lease', 'w2', ['running'], { expired: true, leaseMs: 1000 })).toBeUndefined();
      clock.advance(600);
      expect(await store.renewLease('lease', 1, 1000)).toBe(true); // the heartbeat: good for 1000 ms from now
      clock.advance(600);
      expect(await store.expiredTurns('a')).toEqual([]);
      expect(await store.claimTurn('lease', 'w2', ['running'], { expired: true, leaseMs: 1000 })).toBeUndefined();
      clock.advance(400);
      expect(await store.expiredTurns('a')).toEqual(['lease']);
      expect(await store.expiredTurns('another agent')).toEqual([]);
      const taken = await store.claimTurn('lease', 'w2', ['running'], { expired: true, leaseMs: 1000 });
      expect(taken).toMatchObject({ owner: 'w2', attempt: 2, leaseUntil: clock.now() + 1000 });
      expect(await store.renewLease('lease', 1, 1000)).toBe(false);
      expect(await store.expiredTurns('a')).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a live worker renews its lease: a tool that runs past several leases is never taken over', async () => {
    const [workerStore, otherStore] = await open();
    try {
      const { store, renewals } = countingRenewals(workerStore);
      let finish!: () => void;
      const ran: string[] = [];
      const slowDone = () => new Promise<void>((resolve) => (finish = resolve));
      const worker = durableAgent(worldAgent({ ran, slowDone }), { store, owner: 'worker', leaseMs: 1500, heartbeatMs: 30 });
      const other = durableAgent(worldAgent({ ran }), { store: otherStore, owner: 'other', leaseMs: 1500 });
      const turnId = 'long-tool';
      const events = collect(worker.run({ message: 'crash long', conversationId: 'c-long', ingress: { channel: 'cli', turnId } }));
      await untilTurn(otherStore, () => turnId, (t) => slotStates(t).join() === 'done,running,done');
      // 60 renewals, at least 30 ms apart: the tool runs for more than one lease
      for (let n = 10; n <= 60; n += 10) {
        await renewals(n);
        expect(await collect(other.continue(turnId, { takeOver: 'expired' }))).toEqual([]);
        expect(await otherStore.expiredTurns('world')).toEqual([]);
      }
      finish();
      const done = (await events).pop() as Done;
      expect(done).toMatchObject({ reason: 'final', text: 'survived' });
      expect(ran).toEqual(['lookup a', 'slow k', 'lookup z']);
      expect(await otherStore.getTurn(turnId)).toMatchObject({ status: 'done', owner: 'worker', attempt: 1 });
    } finally {
      await Promise.all([workerStore.close(), otherStore.close()]);
    }
  });

  it("a dead worker's lease runs out and another worker takes the turn over: nothing runs twice", async () => {
    const clock = testClock();
    const [deadStore, liveStore] = await open(clock.now);
    try {
      const ran: string[] = [];
      const dead = durableAgent(worldAgent({ ran, slowDone: never }), { store: deadStore, owner: 'dead', leaseMs: 5000 });
      const turnId = 'dead-worker';
      const sub = dead.run({ message: 'crash dead', conversationId: 'c-dead', ingress: { channel: 'cli', turnId } }).subscribe();
      await untilTurn(liveStore, () => turnId, (t) => slotStates(t).join() === 'done,running,done');
      sub.unsubscribe(); // the worker dies: no more writes, no more heartbeats
      const laterRan: string[] = [];
      const live = durableAgent(worldAgent({ ran: laterRan }), { store: liveStore, owner: 'live', leaseMs: 5000 });
      expect(await collect(live.continue(turnId, { takeOver: 'expired' }))).toEqual([]); // its lease still holds
      clock.advance(5000);
      expect(await liveStore.expiredTurns('world')).toEqual([turnId]);
      const done = (await collect(live.continue(turnId, { takeOver: 'expired' }))).pop() as Done;
      expect(done.reason).toBe('final');
      expect(done.history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['value of a', '[interrupted before this tool produced a result]', 'value of z']);
      expect(laterRan).toEqual([]);
      expect(await liveStore.getTurn(turnId)).toMatchObject({ status: 'done', owner: 'live', attempt: 2 });
    } finally {
      await Promise.all([deadStore.close(), liveStore.close()]);
    }
  });
});

describe.each(backends)('fencing on %s', (_name, open) => {
  it('a worker whose turn was taken writes no event and no audit row afterwards, and runs nothing more', async () => {
    const [oldStore, newStore] = await open();
    try {
      const ran: string[] = [];
      let answer!: (value: ApprovalAnswer) => void;
      let asked!: () => void;
      const askedNow = new Promise<void>((resolve) => (asked = resolve));
      const frontDoor = { name: 'console', ask: () => (asked(), new Promise<ApprovalAnswer>((resolve) => (answer = resolve))) };
      const old = durableAgent(worldAgent({ ran }, frontDoor), { store: oldStore, owner: 'old' });
      const turnId = 'fenced';
      const outcome = collect(old.run({ message: 'note fenced', conversationId: 'c-fenced', ingress: { channel: 'cli', turnId } })).then(
        () => undefined,
        (error: unknown) => error,
      );
      await askedNow; // the old worker waits for an operator
      const taken = await newStore.claimTurn(turnId, 'new', ['running'], { leaseMs: 30_000 });
      expect(taken?.attempt).toBe(2);
      const eventsAtTakeover = (await newStore.events(turnId)).length;
      answer('yes');
      expect(await outcome).toBeInstanceOf(TurnTakenOverError);
      expect((await newStore.events(turnId)).length).toBe(eventsAtTakeover);
      expect(await newStore.auditLog({ turnId })).toEqual([]);
      expect(ran).toEqual(['lookup a']); // the batch the operator approved never ran
      expect(await newStore.history('c-fenced')).toEqual([]);
      expect(await newStore.getTurn(turnId)).toMatchObject({ status: 'running', owner: 'new', attempt: 2 });
      // the store refuses the old attempt's appends outright
      const record = { turnId, conversationId: 'c-fenced', requestId: 'r', toolName: 'write', decision: 'yes', decidedBy: 'x', byOperator: true, at: 0 };
      expect(await newStore.appendAudit(record, 1)).toBe(false);
      expect(await newStore.appendEvents(turnId, [{ type: 'text-delta', iteration: 1, text: 'late' } as TurnEvent], 1)).toBe(false);
      expect(await newStore.saveHistory('c-fenced', [{ role: 'user', content: 'late' }], { turnId, attempt: 1 })).toBe(false);
      expect((await newStore.events(turnId)).length).toBe(eventsAtTakeover);
      expect(await newStore.appendAudit(record, 2)).toBe(true); // the holder's are written
    } finally {
      await Promise.all([oldStore.close(), newStore.close()]);
    }
  });

  it('a live worker whose turn was taken over stops its running tool at its next heartbeat', async () => {
    const [oldStore, newStore] = await open();
    try {
      let toolAborted!: () => void;
      const aborted = new Promise<void>((resolve) => (toolAborted = resolve));
      const slowDone = (_key: string, signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => (toolAborted(), resolve()), { once: true }));
      const old = durableAgent(worldAgent({ slowDone }), { store: oldStore, owner: 'old', leaseMs: 30_000, heartbeatMs: 20 });
      const turnId = 'stopped';
      const outcome = collect(old.run({ message: 'crash stop', conversationId: 'c-stop', ingress: { channel: 'cli', turnId } })).then(
        () => undefined,
        (error: unknown) => error,
      );
      await untilTurn(newStore, () => turnId, (t) => slotStates(t).join() === 'done,running,done');
      await newStore.claimTurn(turnId, 'new', ['running'], { leaseMs: 30_000 });
      const eventsAtTakeover = (await newStore.events(turnId)).length;
      await aborted;
      expect(await outcome).toBeInstanceOf(TurnTakenOverError);
      expect((await newStore.events(turnId)).length).toBe(eventsAtTakeover);
      expect(slotStates((await newStore.getTurn(turnId))!)).toEqual(['done', 'running', 'done']); // the checkpoint is the new owner's to settle
    } finally {
      await Promise.all([oldStore.close(), newStore.close()]);
    }
  });
});
