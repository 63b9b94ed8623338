import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableAgent, openSqlTurnStore, poolDriver, turnQueue, type TurnQueue, type TurnStore } from '../../src/durable/index.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';
import { untilTurn } from './until-turn.js';
import { worldAgent } from './world.js';

/**
 * The queue's workers in this process (two slots), so a test holds a turn's tool open: a busy
 * conversation holds up no other, and its own turns run one at a time, in submit order.
 */
let db: TestDatabase;
let store: TurnStore;
let app: TurnStore;
let boss: PgBoss;
const queues: TurnQueue[] = [];
beforeAll(async () => {
  db = await openTestDatabase();
  store = await openSqlTurnStore(poolDriver(db.pool(), db.driverOptions), { pollMs: 50 });
  let last = 0; // the submitting instance's clock ticks between submits, so submit order is the queued order
  app = await openSqlTurnStore(poolDriver(db.pool(4), db.driverOptions), { pollMs: 50, now: () => (last = Math.max(last + 1, Date.now())) });
  boss = new PgBoss({ connectionString: db.url, max: 4, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
}, 60_000);
afterAll(async () => {
  await Promise.all(queues.map((q) => q.stop()));
  await boss?.stop({ graceful: false, wait: true });
  await app?.close();
  await store?.close();
  await db?.close();
}, 60_000);

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

/** Two worker slots on their own queue; `log` gets each claim and each end, in the order the store took them. */
async function workers(queueName: string, hooks: Parameters<typeof worldAgent>[0] = {}) {
  const log: string[] = [];
  const logged: TurnStore = {
    ...store,
    async claimTurn(...args) {
      const turn = await store.claimTurn(...args);
      if (turn) log.push(`claim ${turn.turnId}`);
      return turn;
    },
    async updateTurn(turnId, attempt, patch, events) {
      const ok = await store.updateTurn(turnId, attempt, patch, events);
      if (ok && patch.status !== undefined && patch.status !== 'running') log.push(`${patch.status} ${turnId}`);
      return ok;
    },
  };
  const queue = await turnQueue(boss, { name: queueName, expireInSeconds: 600, busyRetrySeconds: 1 });
  queues.push(queue);
  await queue.work(durableAgent(worldAgent(hooks), { store: logged, onReady: queue.enqueue, owner: queueName }), { concurrency: 2 });
  return { queue, log };
}

const before = (log: string[], first: string, then: string): boolean => log.indexOf(first) !== -1 && log.indexOf(first) < log.indexOf(then);
const userMessages = async (conversationId: string) => (await store.history(conversationId)).filter((m) => m.role === 'user').map((m) => m.content);

describe('turnQueue on pg-boss', () => {
  it("a busy conversation blocks no other: B's turn runs to its end while A's first runs; A's next turns wait, in order", async () => {
    const release = deferred();
    const slowStarted = deferred();
    const { queue, log } = await workers('rtl-turns-busy', { onSlowStart: () => slowStarted.resolve(), slowDone: () => release.promise });
    const submit = durableAgent(worldAgent(), { store: app, onReady: queue.enqueue }).submit;
    const a1 = await submit({ message: 'crash in A', conversationId: 'busy-A' });
    await slowStarted.promise; // A's first turn is in its slow tool, on one of the two slots
    const a2 = await submit({ message: 'plain A two', conversationId: 'busy-A' });
    const a3 = await submit({ message: 'plain A three', conversationId: 'busy-A' });
    const b = await submit({ message: 'plain B', conversationId: 'busy-B' });
    // before the fix: A's second job sat at the head of the queue, its key active, and no slot fetched B's
    const bDone = await untilTurn(store, () => b, (t) => t.status === 'done');
    expect(bDone.outcome).toEqual({ reason: 'final', text: 'plain' });
    expect((await store.getTurn(a1))?.status).toBe('running');
    expect((await store.getTurn(a2))?.status).toBe('queued');
    expect((await store.getTurn(a3))?.status).toBe('queued');
    release.resolve();
    await untilTurn(store, () => a3, (t) => t.status === 'done');
    // one turn of A at a time, in submit order; each claimed once
    expect(before(log, `done ${a1}`, `claim ${a2}`)).toBe(true);
    expect(before(log, `done ${a2}`, `claim ${a3}`)).toBe(true);
    expect(before(log, `claim ${b}`, `done ${a1}`)).toBe(true);
    for (const id of [a1, a2, a3, b]) expect(log.filter((l) => l === `claim ${id}`)).toHaveLength(1);
    expect(await userMessages('busy-A')).toEqual(['crash in A', 'plain A two', 'plain A three']);
    expect((await store.getTurn(a1))?.outcome).toEqual({ reason: 'final', text: 'survived' });
  }, 120_000);

  it('a queued turn whose enqueue was lost does not hold its conversation: the next turn sends it a job', async () => {
    const { queue, log } = await workers('rtl-turns-lost');
    const lost = await durableAgent(worldAgent(), { store: app }).submit({ message: 'plain first', conversationId: 'lost-C' }); // no onReady: no job
    const next = await durableAgent(worldAgent(), { store: app, onReady: queue.enqueue }).submit({ message: 'plain second', conversationId: 'lost-C' });
    await untilTurn(store, () => next, (t) => t.status === 'done');
    expect((await store.getTurn(lost))?.status).toBe('done');
    expect(before(log, `done ${lost}`, `claim ${next}`)).toBe(true);
    expect(await userMessages('lost-C')).toEqual(['plain first', 'plain second']);
  }, 120_000);
});
