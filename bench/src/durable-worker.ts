/**
 * A worker process of the durable bench (forked by durable.ts, run through tsx): a store and a
 * pg-boss on pools of its own (every statement counted), `turnQueue.work` with the bench agent.
 * It tells its parent over IPC when a turn parks (the parent decides), when a resumed turn stored
 * its first event, and when a turn ended; on request it reports its counts, or measures single-row
 * insert commits over the same connections (PostgreSQL's ceiling).
 *
 *   argv: <database url> <postgres|pglite> <concurrency> <pool max> <library: src|build dir> <queue name> <wake-ups: on|off>
 */
import pg from 'pg';
import PgBoss from 'pg-boss';
import type * as Durable from '../../src/durable/index.js';
import { durableBenchAgent } from './durable-bench-agent.js';
import { countingBossDb, countingPool, noCounts } from './durable-counts.js';
import { processCpuMs } from './durable-cpu.js';
import { loadLibrary, now } from './durable-library.js';

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'parked'; turnId: string; requestId: string }
  | { type: 'resumed'; turnId: string; at: number }
  | { type: 'ended'; turnId: string; status: string; at: number }
  | { type: 'counts'; counts: ReturnType<typeof noCounts>; cpuMs: number }
  | { type: 'ceiling'; commits: number; ms: number };

/** What the parent asks (it ends a worker with a signal: every turn is over by then, nothing to finish). */
export type ParentMessage = { type: 'counts' } | { type: 'ceiling'; ms: number };

async function main(): Promise<void> {
  const [url, backend, concurrency, poolMax, from, queueName, wake] = process.argv.slice(2);
  const send = (message: WorkerMessage) => process.send!(message);
  const { lib, testing, durable } = await loadLibrary(from);
  const counts = noCounts();
  const max = Number(poolMax);
  const storePool = new pg.Pool({ connectionString: url, max });
  const bossPool = new pg.Pool({ connectionString: url, max });
  for (const pool of [storePool, bossPool]) pool.on('error', () => undefined);
  const pglite = backend === 'pglite';
  const store = await durable.openSqlTurnStore(durable.poolDriver(countingPool(storePool, counts), pglite ? { listen: false, backend: 'pglite' } : {}));
  const boss = new PgBoss({ db: countingBossDb(bossPool, counts), schedule: false } as PgBoss.ConstructorOptions);
  boss.on('error', () => undefined);
  await boss.start();
  // LISTEN holds one connection of pg-boss's pool, which has the fewest queries to run
  const wakeUps = wake === 'on' ? durable.poolDriver(countingPool(bossPool, counts), pglite ? { listen: false } : {}) : undefined;
  const queue = await durable.turnQueue(boss, { name: queueName, expireInSeconds: 600, ...(wakeUps ? { wakeUps } : {}) });

  const resuming = new Set<string>();
  const watched: Durable.TurnStore = {
    ...store,
    async claimTurn(turnId, owner, from, options) {
      const turn = await store.claimTurn(turnId, owner, from, options);
      if (turn && from.includes('parked')) resuming.add(turnId);
      return turn;
    },
    async appendEvents(turnId, events, attempt) {
      const written = await store.appendEvents(turnId, events, attempt);
      if (resuming.delete(turnId)) send({ type: 'resumed', turnId, at: now() });
      return written;
    },
    async updateTurn(turnId, attempt, patch, events) {
      const written = await store.updateTurn(turnId, attempt, patch, events);
      if (events?.length && resuming.delete(turnId)) send({ type: 'resumed', turnId, at: now() }); // events logged with the row's change
      if (written && patch.status === 'parked') send({ type: 'parked', turnId, requestId: patch.pending![0].requestId });
      if (written && (patch.status === 'done' || patch.status === 'failed')) send({ type: 'ended', turnId, status: patch.status, at: now() });
      return written;
    },
  };
  await queue.work(durable.durableAgent(durableBenchAgent(lib, testing), { store: watched, onReady: queue.enqueue }), { concurrency: Number(concurrency) });

  process.on('message', (message: ParentMessage) => {
    if (message.type === 'counts') send({ type: 'counts', counts: { ...counts, byKind: { ...counts.byKind } }, cpuMs: processCpuMs() });
    if (message.type === 'ceiling') void ceiling([storePool, bossPool], max, message.ms).then((commits) => send({ type: 'ceiling', commits, ms: message.ms }));
  });
  send({ type: 'ready' });
}

/** Single-row INSERTs, each its own transaction, from `perPool` loops on each pool for `ms`: the commits made. */
async function ceiling(pools: readonly pg.Pool[], perPool: number, ms: number): Promise<number> {
  const end = now() + ms;
  let commits = 0;
  const loop = async (pool: pg.Pool) => {
    while (now() < end) {
      await pool.query('INSERT INTO rtl_bench_ceiling (pid, at) VALUES ($1, $2)', [process.pid, Math.round(now())]);
      commits += 1;
    }
  };
  await Promise.all(pools.flatMap((pool) => Array.from({ length: perPool }, () => loop(pool))));
  return commits;
}

if (process.send) await main();
