import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableAgent, openSqlTurnStore, poolDriver, turnQueue, type DurableAgent, type TurnQueue, type TurnStore } from '../../src/durable/index.js';
import { startChild, type Child } from './processes.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';
import { slotStates, untilTurn } from './until-turn.js';
import { worldAgent } from './world.js';

/**
 * Turns as pg-boss jobs on worker processes: the test process submits and decides (an app
 * instance: it enqueues, never works), children work.
 */
let db: TestDatabase;
let store: TurnStore;
let boss: PgBoss;
let queue: TurnQueue;
let app: DurableAgent;
const children: Child[] = [];
beforeAll(async () => {
  db = await openTestDatabase();
  store = await openSqlTurnStore(poolDriver(db.pool(), db.driverOptions), { pollMs: 50 });
  boss = new PgBoss({ connectionString: db.url, max: 4, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  queue = await turnQueue(boss, { expireInSeconds: 3 });
  app = durableAgent(worldAgent(), { store, onReady: queue.enqueue });
}, 60_000);
afterAll(async () => {
  for (const child of children) child.process.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  await boss?.stop({ graceful: false, wait: true });
  await store?.close();
  await db?.close();
}, 60_000);

/**
 * A worker process. On 'rtl-turns', a dead worker's turn is taken over 2 s after its last
 * heartbeat; `queue` 'many' keeps the default lease, so no turn is taken over on a loaded machine.
 */
const worker = (concurrency = 4, queueName = 'rtl-turns'): Child => {
  const child = startChild(db, ['worker', String(concurrency)], queueName === 'rtl-turns' ? { RTL_EXPIRE: '3', RTL_LEASE: '2000' } : { RTL_EXPIRE: '600', RTL_QUEUE: queueName });
  children.push(child);
  return child;
};
const ranLines = (child: Child) => child.lines.filter((l) => l.startsWith('ran ')).map((l) => l.slice(4));

describe('turns on pg-boss workers', () => {
  it('a worker killed with SIGKILL mid-tool: another finishes the turn with that slot interrupted', async () => {
    const first = worker();
    await first.line((l) => l === 'worker-ready');
    const turnId = await app.submit({ message: 'crash on a worker', conversationId: 'conv-kill' });
    await first.line((l) => l === 'slow-started k');
    await untilTurn(store, () => turnId, (t) => slotStates(t).join() === 'done,running,done');
    first.process.kill('SIGKILL');
    await first.exited;
    const second = worker();
    const done = await untilTurn(store, () => turnId, (t) => t.status === 'done');
    expect(done.outcome).toEqual({ reason: 'final', text: 'survived' });
    expect(ranLines(first)).toEqual(['lookup a', 'slow k', 'lookup z']);
    expect(ranLines(second)).toEqual([]); // nothing that finished ran again; the slot that was running did not either
    const history = await store.history('conv-kill');
    expect(history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['value of a', '[interrupted before this tool produced a result]', 'value of z']);
    second.process.kill('SIGKILL');
    await second.exited;
  }, 120_000);

  it('a cancel from the app instance reaches the worker process that runs the turn: its tool stops, finished results are kept', async () => {
    const child = worker();
    await child.line((l) => l === 'worker-ready');
    const turnId = await app.submit({ message: 'crash then cancel', conversationId: 'conv-cancel' });
    await child.line((l) => l === 'slow-started k');
    await untilTurn(store, () => turnId, (t) => slotStates(t).join() === 'done,running,done');
    expect(await app.cancel(turnId, 'alice')).toEqual({ status: 'requested' });
    const done = await untilTurn(store, () => turnId, (t) => t.status === 'done');
    expect(done.outcome).toMatchObject({ reason: 'cancelled' });
    expect(done.owner).toMatch(/^worker-/);
    const history = await store.history('conv-cancel');
    expect(history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['value of a', '[interrupted before this tool produced a result]', 'value of z']);
    child.process.kill('SIGKILL');
    await child.exited;
  }, 120_000);

  it('1,000 turns parked and resumed by 4 worker processes: none lost, none run twice', async () => {
    // PGlite serves every connection on one session: past ~6 turns at once per worker, pg-boss over
    // pglite-socket stalled in our runs, so the fallback runs fewer at once (the same 1,000 turns)
    const perWorker = db.backend === 'pglite' ? 4 : 16;
    const many = await turnQueue(boss, { name: 'rtl-turns-many', expireInSeconds: 600 });
    const submitter = durableAgent(worldAgent(), { store, onReady: many.enqueue });
    const workers = [1, 2, 3, 4].map(() => worker(perWorker, many.name));
    await Promise.all(workers.map((w) => w.line((l) => l === 'worker-ready')));
    const N = 1000;
    // an operator decides each turn as it parks; every turn's row is read once per change of it
    const decided = new Set<string>();
    const finished = new Set<string>();
    const failures: string[] = [];
    let settle!: () => void;
    const allDone = new Promise<void>((resolve) => (settle = resolve));
    const seen = async (turnId: string): Promise<void> => {
      if (finished.has(turnId)) return;
      const turn = await store.getTurn(turnId);
      if (!turn?.conversationId?.startsWith('many-')) return;
      if (turn.status === 'parked' && !decided.has(turnId)) {
        decided.add(turnId);
        const outcome = await submitter.decide(turnId, turn.pending[0].requestId, 'yes', 'operator');
        if (outcome.status !== 'accepted') failures.push(`${turnId}: ${outcome.status}`);
      } else if (turn.status === 'done' || turn.status === 'failed') {
        finished.add(turnId);
        if (turn.status === 'failed') failures.push(`${turnId}: failed ${turn.outcome?.text}`);
        if (finished.size === N) settle();
      }
    };
    const stop = store.watch((change) => {
      if (change.kind === 'turn') void seen(change.turnId);
    });
    const t0 = Date.now();
    const ids = await Promise.all(Array.from({ length: N }, (_, i) => submitter.submit({ message: 'note many', conversationId: `many-${i}` })));
    for (const id of ids) void seen(id); // what changed before the watcher started
    await allDone;
    stop();
    console.info(`1,000 turns on ${db.backend}: ${((N * 1000) / (Date.now() - t0)).toFixed(1)} turns/s from submit to done`);
    expect(failures).toEqual([]);
    expect(decided.size).toBe(N);
    const all = (await store.listTurns({ status: 'done' })).filter((t) => t.conversationId?.startsWith('many-')).length;
    expect(all).toBe(N);
    const writes = new Map<string, number>();
    for (const line of workers.flatMap(ranLines)) if (line.startsWith('write ')) writes.set(line, (writes.get(line) ?? 0) + 1);
    expect([...writes.values()].reduce((a, b) => a + b, 0)).toBe(N); // one write per turn, on whichever worker
    for (const id of ids.slice(0, 20)) expect((await store.getTurn(id))?.outcome).toEqual({ reason: 'final', text: 'noted' });
    const lookups = workers.flatMap(ranLines).filter((l) => l.startsWith('lookup ')).length;
    expect(lookups).toBe(2 * N); // two reads per turn, none repeated
    const busy = workers.filter((w) => ranLines(w).length > 0).length;
    expect(busy).toBeGreaterThan(1); // the load was shared
    for (const w of workers) w.process.kill('SIGKILL'); // the turns are done; no shutdown to wait for
    await Promise.all(workers.map((w) => w.exited));
  }, 900_000);
});

