import { createRequire } from 'node:module';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { jobWakeUps } from '../../../src/durable/job-wake-ups.js';
import { poolDriver } from '../../../src/durable/postgres-turn-store.js';
import { BENCH_TURNS_DDL, poolQuery, runBenchJob, saveDecision } from './bench-turns.js';
import type { Engine } from './engine.js';

const QUEUE = 'bench-turns';
const version = (createRequire(import.meta.url)('pg-boss/package.json') as { version: string }).version;

/**
 * pg-boss as `turnQueue` uses it, without the store: a job starts the turn, the worker keeps the
 * parked snapshot in `bench_turns`, the decision is one transaction (the row and the resume job)
 * followed by a NOTIFY, and a second job resumes it. Workers fetch on LISTEN/NOTIFY wake-ups (`jobWakeUps`,
 * the library's), polling every 5 s as the fallback, as `turnQueue` does.
 */
export const pgBossEngine: Engine = {
  name: `pg-boss ${version}`,
  async install(url) {
    const boss = new PgBoss({ connectionString: url, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    await boss.createQueue(QUEUE, { name: QUEUE, policy: 'standard', expireInSeconds: 600, retryLimit: 0 });
    await boss.stop({ graceful: false, wait: true });
    const client = new pg.Client(url);
    await client.connect();
    await client.query(BENCH_TURNS_DDL);
    await client.end();
  },
  async openApp(url) {
    const { pool, boss, wake } = await openBoss(url);
    return {
      async submit(turnId) {
        await boss.send(QUEUE, { turnId, step: 'start' });
        await wake.sent();
      },
      async decide(turnId, _requestId, decision) {
        const resumeJob = { turnId, step: 'resume' };
        await saveDecision(pool, turnId, decision, (client) => boss.send(QUEUE, resumeJob, { db: { executeSql: (text: string, values: unknown[]) => client.query(text, values) } }));
        await wake.sent(); // after the commit, as turnQueue does: whoever wakes finds the job
      },
      async close() {
        await boss.stop({ graceful: false, wait: true });
        await pool.end();
      },
    };
  },
  async openWorker(url, { concurrency, work, hooks }) {
    const { pool, boss, wake } = await openBoss(url);
    await wake.listen();
    const query = poolQuery(pool);
    for (let i = 0; i < concurrency; i += 1) {
      let id: string | undefined;
      id = await boss.work<{ turnId: string; step: string }>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 5 }, async ([job]) => {
        if (id !== undefined) wake.busy(id);
        try {
          await runBenchJob(query, work, hooks, job.data.turnId, job.data.step);
        } finally {
          if (id !== undefined) (wake.idle(id), boss.notifyWorker(id));
        }
      });
      wake.idle(id);
    }
    return {
      async close() {
        await wake.stop();
        await boss.stop({ graceful: false, wait: true });
        await pool.end();
      },
    };
  },
};

/** A pool of 10, a pg-boss on it (no maintenance: the bench is short) and the queue's wake-ups. */
async function openBoss(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => undefined);
  const boss = new PgBoss({ db: { executeSql: (text: string, values: unknown[]) => pool.query(text, values) }, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  return { pool, boss, wake: jobWakeUps(boss, QUEUE, poolDriver(pool)) };
}
