import pg, { type Pool } from 'pg';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TurnEvent, TurnEventOf } from '../../src/index.js';
import { DurableStoreError, durableAgent, memoryTurnStore, openSqlTurnStore, poolDriver, type PruneOptions, type TurnStatus, type TurnStore } from '../../src/durable/index.js';
import { sharedPgliteStore, durableBackendsForFile } from './shared-pglite.js';
import { worldAgent } from './world.js';

const DAY = 24 * 3_600_000;
const db = durableBackendsForFile();
const collect = (events$: Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));

/** A clock the test moves by hand; every store below reads it. */
function handClock(start = 1_700_000_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

let schemas = 0;
const pools: Pool[] = [];
afterAll(async () => Promise.all(pools.splice(0).map((p) => p.end().catch(() => undefined))));

/**
 * A pool on the test database whose connections start in `schema` (PostgreSQL: the connection's
 * startup options; PGlite behind a socket has one session for all of them: set once).
 */
async function schemaPool(schema: string, max: number): Promise<Pool> {
  if (db().backend === 'pglite') {
    const pool = db().pool(max);
    await pool.query(`SET search_path TO ${schema}`);
    return pool;
  }
  const pool = new pg.Pool({ connectionString: db().url, max, options: `-c search_path=${schema}` });
  pool.on('error', () => undefined);
  pools.push(pool);
  return pool;
}

/**
 * A store on the test database in a schema of its own, so one test's prune never meets another
 * test's turns; its pool, for reading the tables; `instances` more stores on the same schema.
 */
async function schemaStore(now: () => number, instances = 0): Promise<{ store: TurnStore; pool: Pool; more: TurnStore[] }> {
  const schema = `retention_${++schemas}`;
  await db().pool(1).query(`CREATE SCHEMA ${schema}`);
  const open = async () => {
    const pool = await schemaPool(schema, 4);
    return { pool, store: await openSqlTurnStore(poolDriver(pool, db().driverOptions), { pollMs: 20, now }) };
  };
  const first = await open();
  const more = [];
  for (let i = 0; i < instances; i++) more.push((await open()).store);
  return { ...first, more };
}

const backends: [string, (now: () => number) => Promise<TurnStore>][] = [
  ['memory', async (now) => memoryTurnStore({ now })],
  ['pglite in this process', (now) => sharedPgliteStore({ now })],
  ['the test database', async (now) => (await schemaStore(now)).store],
];

const event = (text: string): TurnEvent => ({ type: 'text-delta', iteration: 1, text });

/** A turn in `status` with one of everything keyed by turn: an event, a decision, an audit entry, a snapshot claim. */
async function turnWithRows(store: TurnStore, turnId: string, status: TurnStatus): Promise<void> {
  await store.createTurn({ turnId, agent: 'a', conversationId: 'conv', input: { message: 'hi', ingress: { channel: 'cli', turnId } }, status: status === 'queued' ? 'queued' : 'running' });
  if (status !== 'queued' && status !== 'running') expect(await store.updateTurn(turnId, 1, { status })).toBe(true);
  await store.appendEvents(turnId, [event(`${turnId} 1`), event(`${turnId} 2`)]);
  await store.decide({ turnId, requestId: 'r1', decision: 'yes', decidedBy: 'alice' });
  await store.appendAudit({ turnId, conversationId: 'conv', requestId: 'r1', toolName: 'write', decision: 'yes', decidedBy: 'alice', byOperator: true, at: 0 });
  expect(await store.claimSnapshot(turnId, 1)).toBe(true);
}

/** What the store still holds of a turn. */
async function rowsOf(store: TurnStore, turnId: string) {
  return {
    turn: (await store.getTurn(turnId))?.status,
    events: (await store.events(turnId)).length,
    decisions: (await store.decisions(turnId)).length,
    audit: (await store.auditLog({ turnId })).length,
  };
}

describe.each(backends)('retention on the %s store: finished turns go after olderThanMs, with their rows; others never', (_, open) => {
  it('a finished turn older than olderThanMs goes with its events, decisions, audit entries and snapshot claims; a young one stays', async () => {
    const clock = handClock();
    const store = await open(clock.now);
    try {
      for (const status of ['done', 'failed', 'parked', 'running', 'queued'] as const) await turnWithRows(store, `old-${status}`, status);
      await store.saveHistory('conv', [{ role: 'user', content: 'kept' }]);
      await store.allow('conv', 'write');
      clock.advance(7 * DAY);
      await turnWithRows(store, 'edge-done', 'done'); // written exactly olderThanMs before the prune below
      clock.advance(1);
      await turnWithRows(store, 'young-done', 'done');

      expect(await store.prune({ olderThanMs: 7 * DAY })).toEqual({ turns: 2 });

      const gone = { turn: undefined, events: 0, decisions: 0, audit: 0 };
      expect(await rowsOf(store, 'old-done')).toEqual(gone);
      expect(await rowsOf(store, 'old-failed')).toEqual(gone);
      expect(await store.claimSnapshot('old-done', 1)).toBe(true); // its claim went with it
      for (const [turnId, status] of [['old-parked', 'parked'], ['old-running', 'running'], ['old-queued', 'queued'], ['edge-done', 'done'], ['young-done', 'done']]) {
        expect(await rowsOf(store, turnId)).toEqual({ turn: status, events: 2, decisions: 1, audit: 1 });
        expect(await store.claimSnapshot(turnId, 1)).toBe(false);
      }
      expect(await store.history('conv')).toEqual([{ role: 'user', content: 'kept' }]);
      expect(await store.allowList('conv')).toEqual(['write']);
      expect(await store.prune({ olderThanMs: 7 * DAY })).toEqual({ turns: 0 });
    } finally {
      await store.close();
    }
  });

  it('a parked turn is never pruned, however old, even with olderThanMs 0; turns run by an agent go with their events', async () => {
    const clock = handClock();
    const store = await open(clock.now);
    try {
      const durable = durableAgent(worldAgent(), { store });
      const [doneId, parkedId] = ['agent-done', 'agent-parked'];
      const finished = (await collect(durable.run({ message: 'plain one', conversationId: 'p1', ingress: { channel: 'cli', turnId: doneId } }))).pop() as TurnEventOf<'done'>;
      const parked = (await collect(durable.run({ message: 'note two', conversationId: 'p2', ingress: { channel: 'cli', turnId: parkedId } }))).pop() as TurnEventOf<'done'>;
      expect([finished.reason, parked.reason]).toEqual(['final', 'paused']);
      expect((await store.events(doneId)).length).toBeGreaterThan(0);
      const parkedEvents = (await store.events(parkedId)).length;
      clock.advance(365 * DAY);

      expect(await store.prune({ olderThanMs: 0 })).toEqual({ turns: 1 });
      expect(await store.getTurn(doneId)).toBeUndefined();
      expect(await store.events(doneId)).toEqual([]);
      expect((await store.getTurn(parkedId))?.status).toBe('parked');
      expect((await store.events(parkedId)).length).toBe(parkedEvents);
      // the parked turn still resumes after the prune
      await durable.decide(parkedId, parked.pending![0].requestId, 'yes', 'alice');
      expect((await collect(durable.continue(parkedId))).pop()).toMatchObject({ type: 'done', reason: 'final', text: 'noted' });
    } finally {
      await store.close();
    }
  });

  it('prunes in batches: more old turns than batchSize all go; the event log goes on numbering after a prune', async () => {
    const clock = handClock();
    const store = await open(clock.now);
    try {
      for (let i = 0; i < 7; i++) await turnWithRows(store, `batch-${i}`, 'done');
      await turnWithRows(store, 'kept', 'parked');
      const lastSeq = (await store.events('kept')).at(-1)!.seq;
      clock.advance(DAY + 1);
      expect(await store.prune({ olderThanMs: DAY, batchSize: 2 })).toEqual({ turns: 7 });
      expect(await store.listTurns()).toMatchObject([{ turnId: 'kept' }]);
      await store.appendEvents('kept', [event('after')]);
      expect((await store.events('kept')).at(-1)!.seq).toBeGreaterThan(lastSeq);
    } finally {
      await store.close();
    }
  });

  it('refuses options that are not a duration with a DurableStoreError, before anything is deleted', async () => {
    const clock = handClock();
    const store = await open(clock.now);
    try {
      await turnWithRows(store, 'bad-options', 'done');
      clock.advance(DAY);
      const bad: unknown[] = [undefined, {}, { olderThanMs: -1 }, { olderThanMs: Number.NaN }, { olderThanMs: Infinity }, { olderThanMs: '0' }, { olderThanMs: 0, batchSize: 0 }, { olderThanMs: 0, batchSize: 1.5 }];
      for (const options of bad) await expect(store.prune(options as PruneOptions)).rejects.toBeInstanceOf(DurableStoreError);
      expect((await store.getTurn('bad-options'))?.status).toBe('done');
    } finally {
      await store.close();
    }
  });
});

describe('retention of rtl_change on PostgreSQL: change rows go at the first prune an hour after a prune that saw them', () => {
  it('keeps the newer change rows, and a watcher opened before still sees new changes', async () => {
    const clock = handClock();
    const { store, pool } = await schemaStore(clock.now);
    const maxId = async () => Number((await pool.query<{ id: string | null }>('SELECT max(id)::text AS id FROM rtl_change')).rows[0].id ?? 0);
    const count = async (where: string, id: number) => Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM rtl_change WHERE id ${where} $1`, [id])).rows[0].n);
    try {
      await turnWithRows(store, 'change-old', 'parked');
      await store.prune({ olderThanMs: DAY }); // marks the newest change row
      const marked = await maxId();
      expect(await count('<=', marked)).toBeGreaterThan(0);
      clock.advance(30 * 60_000);
      await turnWithRows(store, 'change-new', 'parked');
      await store.prune({ olderThanMs: DAY }); // half an hour later: nothing is old enough
      expect(await count('<=', marked)).toBeGreaterThan(0);
      clock.advance(31 * 60_000);
      await store.prune({ olderThanMs: DAY });
      expect(await count('<=', marked)).toBe(0);
      expect(await count('>', marked)).toBeGreaterThan(0); // written after the first mark
      const seen = new Promise<string>((resolve) => {
        const stop = store.watch((change) => (stop(), resolve(change.turnId)));
      });
      await store.appendEvents('change-new', [event('later')]);
      expect(await seen).toBe('change-new');
    } finally {
      await store.close();
    }
  });

  it('instances pruning at once split the work: every old turn goes once, none fails', async () => {
    const clock = handClock();
    const { store, more } = await schemaStore(clock.now, 2);
    const stores = [store, ...more];
    try {
      for (let i = 0; i < 30; i++) await stores[0].createTurn({ turnId: `many-${i}`, agent: 'a', input: { message: 'hi', ingress: { channel: 'cli', turnId: `many-${i}` } }, status: 'running' });
      for (let i = 0; i < 30; i++) await stores[0].updateTurn(`many-${i}`, 1, { status: 'done' });
      clock.advance(DAY + 1);
      const results = await Promise.all(stores.map((s) => s.prune({ olderThanMs: DAY, batchSize: 4 })));
      expect(results.reduce((sum, r) => sum + r.turns, 0)).toBe(30);
      expect((await stores[1].listTurns()).filter((t) => t.turnId.startsWith('many-'))).toEqual([]);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
