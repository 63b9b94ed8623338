import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/index.js';
import { durableAgent, memoryTurnStore, openSqlTurnStore, poolDriver, turnEvents, type StoredEvent, type TurnStore } from '../../src/durable/index.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';
import { worldAgent } from './world.js';

const collect = <T>(events$: import('rxjs').Observable<T>) => lastValueFrom(events$.pipe(toArray()));
const last = (events: TurnEvent[]) => events[events.length - 1] as Extract<TurnEvent, { type: 'done' }>;

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
}, 120_000); // PGlite (a machine without the server) compiles its WebAssembly first
afterAll(async () => db?.close());

/** Each backend, and a second instance on the same data (for memory: the same store). */
const backends: [string, () => Promise<[TurnStore, TurnStore]>][] = [
  ['memory', async () => {
    const store = memoryTurnStore();
    return [store, store];
  }],
  ['the test database', async () => [
    await openSqlTurnStore(poolDriver(db.pool(), db.driverOptions), { pollMs: 20 }),
    await openSqlTurnStore(poolDriver(db.pool(), db.driverOptions), { pollMs: 20 }),
  ]],
];

describe.each(backends)('turnEvents on %s: a turn’s events replayed, then followed from any instance', (_name, open) => {
  it('replays a parked turn, waits, follows its resumption on the other instance and completes at its end', async () => {
    const [a, b] = await open();
    try {
      const durable = durableAgent(worldAgent(), { store: a });
      const parked = last(await collect(durable.run({ message: 'note it', conversationId: 'te1' })));
      const turnId = parked.snapshot!.turnId;
      const seen: StoredEvent[] = [];
      const followed = new Promise<void>((resolve, reject) => {
        turnEvents(b, turnId).subscribe({ next: (e) => seen.push(e), error: reject, complete: resolve });
      });
      await durable.decide(turnId, parked.pending![0].requestId, 'yes', 'alice');
      await collect(durableAgent(worldAgent(), { store: a }).continue(turnId));
      await followed;
      const logged = await a.events(turnId);
      expect(seen).toEqual(logged);
      // oldest first by number (a log of more than nine events once came back in text order: 1, 10, 11, …, 2)
      expect(logged.length).toBeGreaterThan(10);
      expect(logged.map((e) => e.seq)).toEqual(logged.map((e) => e.seq).sort((x, y) => x - y));
      expect(seen.filter((e) => e.event.type === 'done').map((e) => (e.event as { reason: string }).reason)).toEqual(['paused', 'final']);
    } finally {
      await b.close();
      if (b !== a) await a.close();
    }
  });

  it('afterSeq skips what was seen; an ended turn replays and completes at once', async () => {
    const [a, b] = await open();
    try {
      const done = last(await collect(durableAgent(worldAgent(), { store: a }).run({ message: 'plain one', conversationId: 'te2' })));
      expect(done.reason).toBe('final');
      const [turn] = (await a.listTurns({ conversationId: 'te2' }));
      const all = await collect(turnEvents(b, turn.turnId));
      expect(all.at(-1)!.event.type).toBe('done');
      const rest = await collect(turnEvents(b, turn.turnId, { afterSeq: all[1].seq }));
      expect(rest).toEqual(all.slice(2));
    } finally {
      await b.close();
      if (b !== a) await a.close();
    }
  });
});
