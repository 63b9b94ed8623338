import PgBoss from 'pg-boss';
import { openSqlTurnStore, poolDriver, type TurnStore, type WakeUps } from '../../src/durable/index.js';
import { sharedPglite, sharedPgliteStore } from './shared-pglite.js';
import type { TestDatabase } from './test-database.js';

/** A store, a started pg-boss and the queue's wake-ups on one database, with pg-boss's fetches counted. */
export interface QueueBackend {
  readonly store: TurnStore;
  readonly boss: PgBoss;
  readonly wakeUps: WakeUps;
  /** Resolves once `n` of the queue's fetches came back without a job (its slots then sleep until the next poll or wake-up). */
  emptyFetches(queue: string, n: number): Promise<void>;
  close(): Promise<void>;
}

type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

/** pg-boss's `db` on `run`, counting each queue's fetches that found no job (pg-boss's fetch is its only `FOR UPDATE SKIP LOCKED`). */
function countedFetches(run: ExecuteSql) {
  const empty = new Map<string, number>();
  const waiters = new Set<{ queue: string; n: number; resolve: () => void }>();
  const executeSql: ExecuteSql = async (text, values) => {
    const result = await run(text, values);
    const queue = values?.[0];
    if (/FOR UPDATE SKIP LOCKED/.test(text) && typeof queue === 'string' && result.rows.length === 0) {
      empty.set(queue, (empty.get(queue) ?? 0) + 1);
      for (const w of [...waiters]) if (w.queue === queue && empty.get(queue)! >= w.n) (waiters.delete(w), w.resolve());
    }
    return result;
  };
  const emptyFetches = (queue: string, n: number) =>
    (empty.get(queue) ?? 0) >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.add({ queue, n, resolve }));
  return { executeSql, emptyFetches };
}

async function startBoss(executeSql: ExecuteSql): Promise<PgBoss> {
  const boss = new PgBoss({ db: { executeSql: executeSql as PgBoss.Db['executeSql'] }, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  return boss;
}

/** On the PostgreSQL test database: a pg pool for the store, another for pg-boss, a third for LISTEN/NOTIFY. */
export async function postgresQueueBackend(db: TestDatabase): Promise<QueueBackend> {
  const store = await openSqlTurnStore(poolDriver(db.pool(4), db.driverOptions), { pollMs: 20 });
  const bossPool = db.pool(4);
  const fetches = countedFetches((text, values) => bossPool.query(text, values));
  const boss = await startBoss(fetches.executeSql);
  return {
    store,
    boss,
    wakeUps: poolDriver(db.pool(8)),
    emptyFetches: fetches.emptyFetches,
    async close() {
      await boss.stop({ graceful: false, wait: true });
      await store.close();
    },
  };
}

/** On the file's PGlite in this process: the store in a schema of its own, pg-boss and LISTEN/NOTIFY on the same PGlite. */
export async function pgliteQueueBackend(): Promise<QueueBackend> {
  const pg = await sharedPglite();
  const store = await sharedPgliteStore({ pollMs: 20 });
  // pg-boss sends its schema as one string of many statements: PGlite runs those with exec
  const fetches = countedFetches(async (text, values) => {
    if (values === undefined || values.length === 0) return { rows: (await pg.exec(text)).at(-1)?.rows ?? [] };
    return pg.query(text, values);
  });
  const boss = await startBoss(fetches.executeSql);
  return {
    store,
    boss,
    wakeUps: {
      query: async <R>(text: string, params?: readonly unknown[]) => (await pg.query<R>(text, params as unknown[])).rows,
      async listen(channel, onNotify) {
        const off = await pg.listen(channel, onNotify);
        return async () => off();
      },
    },
    emptyFetches: fetches.emptyFetches,
    async close() {
      await boss.stop({ graceful: false, wait: true });
      await store.close();
    },
  };
}
