import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Logger, Runner } from 'graphile-worker';
import { BENCH_TURNS_DDL, poolQuery, runBenchJob, saveDecision } from './bench-turns.js';
import type { Engine } from './engine.js';

// its `exports` hide package.json, so it is read from the bench's install
const version = (JSON.parse(readFileSync(new URL('../../node_modules/graphile-worker/package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** graphile-worker 0.18 asks for Node 22.18 or newer (its `engines`). */
const NEEDS = [22, 18] as const;

const TASK = 'bench_turn';
const addJob = `SELECT graphile_worker.add_job($1, json_build_object('turnId', $2::text, 'step', $3::text))`;

/**
 * graphile-worker: a job starts the turn, the worker keeps the parked snapshot in `bench_turns`,
 * the decision is one transaction (the row and the resume job, `graphile_worker.add_job` in SQL),
 * and the resume job ends it. Workers are woken by graphile-worker's own LISTEN/NOTIFY on new
 * jobs (`add_job` notifies), and poll every `pollInterval` (2 s, its default) as the fallback.
 */
export const graphileEngine: Engine = {
  name: `graphile-worker ${version}`,
  unavailable() {
    const [major, minor] = process.versions.node.split('.').map(Number);
    return major > NEEDS[0] || (major === NEEDS[0] && minor >= NEEDS[1]) ? undefined : `needs Node ${NEEDS.join('.')}+ (this is ${process.versions.node}; run with --node=22)`;
  },
  async install(url) {
    const worker = await import('graphile-worker');
    await worker.runMigrations({ connectionString: url, logger: quiet(worker.Logger) });
    const client = new pg.Client(url);
    await client.connect();
    await client.query(BENCH_TURNS_DDL);
    await client.end();
  },
  async openApp(url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => undefined);
    return {
      async submit(turnId) {
        await pool.query(addJob, [TASK, turnId, 'start']);
      },
      async decide(turnId, _requestId, decision) {
        await saveDecision(pool, turnId, decision, (client) => client.query(addJob, [TASK, turnId, 'resume']));
      },
      close: () => pool.end(),
    };
  },
  async openWorker(url, { concurrency, work, hooks }) {
    const worker = await import('graphile-worker');
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => undefined);
    const query = poolQuery(pool);
    const runner: Runner = await worker.run({
      pgPool: pool,
      concurrency,
      noHandleSignals: true,
      logger: quiet(worker.Logger),
      taskList: {
        async [TASK](payload) {
          const { turnId, step } = payload as { turnId: string; step: string };
          await runBenchJob(query, work, hooks, turnId, step);
        },
      },
    });
    return {
      async close() {
        await runner.stop();
        await pool.end();
      },
    };
  },
};

/** graphile-worker's logger, silent but for errors. */
function quiet(LoggerClass: typeof import('graphile-worker').Logger): Logger {
  return new LoggerClass(() => (level, message) => {
    if (level === 'error') console.error(`graphile-worker: ${message}`);
  });
}
