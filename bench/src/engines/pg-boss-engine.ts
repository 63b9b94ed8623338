import { createRequire } from 'node:module';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { jobWakeUps } from '../../../src/durable/job-wake-ups.js';
import { poolDriver } from '../../../src/durable/postgres-turn-store.js';
import { BENCH_TURNS_DDL, loadDecided, poolQuery, saveDecision, saveEnded, saveParked } from './bench-turns.js';
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
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => undefined);
    const boss = new PgBoss({ db: { executeSql: (text: string, values: unknown[]) => pool.query(text, values) }, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    const wake = jobWakeUps(boss, QUEUE, poolDriver(pool));
    return {
      async submit(turnId) {
        await boss.send(QUEUE, { turnId, step: 'start' });
        await wake.sent();
      },
      async decide(turnId, _requestId, decision) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await saveDecision(poolQuery(client), turnId, decision);
          await boss.send(QUEUE, { turnId, step: 'resume' }, { db: { executeSql: (text: string, values: unknown[]) => client.query(text, values) } });
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
        await wake.sent(); // after the commit, as turnQueue does: whoever wakes finds the job
      },
      async close() {
        await boss.stop({ graceful: false, wait: true });
        await pool.end();
      },
    };
  },
  async openWorker(url, { concurrency, work, hooks }) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => undefined);
    const boss = new PgBoss({ db: { executeSql: (text: string, values: unknown[]) => pool.query(text, values) }, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    const wake = jobWakeUps(boss, QUEUE, poolDriver(pool));
    await wake.listen();
    const query = poolQuery(pool);
    const run = async ({ turnId, step }: { turnId: string; step: string }): Promise<void> => {
      if (step === 'start') {
        const { snapshot, requestId } = await work.start(turnId);
        await saveParked(query, turnId, snapshot, requestId);
        hooks.parked(turnId, requestId);
        return;
      }
      const decided = await loadDecided(query, turnId);
      const status = await work.finish(turnId, decided.snapshot, decided.requestId, decided.decision, () => hooks.resumed(turnId));
      await saveEnded(query, turnId, status);
      hooks.ended(turnId, status);
    };
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i += 1) {
      let id: string | undefined;
      id = await boss.work<{ turnId: string; step: string }>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 5 }, async ([job]) => {
        if (id !== undefined) wake.busy(id);
        try {
          await run(job.data);
        } catch (error) {
          console.error(`pg-boss engine: turn ${job.data.turnId}: ${String(error)}`);
          hooks.ended(job.data.turnId, 'failed'); // the bench counts it, and does not wait for it
        } finally {
          if (id !== undefined) (wake.idle(id), boss.notifyWorker(id));
        }
      });
      wake.idle(id);
      ids.push(id);
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
