import { PGlite } from '@electric-sql/pglite';
import { memoryTurnStore, openSqlTurnStore, pgliteTurnStore, poolDriver, type TurnStore } from '../../src/durable/index.js';
import { afterAll, beforeAll } from 'vitest';
import { openTestDatabase, type TestDatabase } from './test-database.js';

/**
 * One PGlite per test file: it takes seconds to start (longer on a loaded machine, and past a
 * test's timeout there), so a file starts it once, in `beforeAll`, and each store gets a schema
 * of its own on it — the same tables, none of another test's rows.
 */
let shared: Promise<PGlite> | undefined;
let schemas = 0;

/** Starts the file's PGlite (call it from `beforeAll`, with a long timeout). */
export async function startSharedPglite(): Promise<void> {
  await (shared ??= PGlite.create());
}

/** The file's PGlite itself (for what shares it with the stores: a pg-boss, LISTEN/NOTIFY). */
export async function sharedPglite(): Promise<PGlite> {
  return (shared ??= PGlite.create());
}

/** A store on the file's PGlite, in a new schema (the store's `close()` leaves the PGlite open); `now`: the store's clock. */
export async function sharedPgliteStore(options: { pollMs?: number; now?: () => number } = {}): Promise<TurnStore> {
  const db = await (shared ??= PGlite.create());
  const schema = `test_${++schemas}`;
  // PGlite has one session: every later query of this store runs in the new schema
  await db.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
  return pgliteTurnStore({ db, pollMs: options.pollMs ?? 20, ...(options.now ? { now: options.now } : {}) });
}

/**
 * Two instances on the same data, each with the clock `now` if given: one memory store seen by
 * both; two stores on one new schema of the file's PGlite; two stores on the test database, each
 * with its own pool (its own connections and LISTEN).
 */
export const instanceBackends = (db: () => TestDatabase): [string, (now?: () => number) => Promise<[TurnStore, TurnStore]>][] => [
  [
    'memory',
    async (now) => {
      const store = memoryTurnStore(now ? { now } : {});
      return [store, store];
    },
  ],
  [
    'pglite in this process',
    async (now) => {
      const first = await sharedPgliteStore({ now });
      // the same session, so the same schema: a second store on the first one's data
      return [first, await pgliteTurnStore({ db: await sharedPglite(), pollMs: 20, ...(now ? { now } : {}) })];
    },
  ],
  [
    'the test database',
    async (now) => {
      const open = () => openSqlTurnStore(poolDriver(db().pool(4), db().driverOptions), { pollMs: 20, ...(now ? { now } : {}) });
      return [await open(), await open()];
    },
  ],
];

/** Closes the file's PGlite (from `afterAll`). */
export async function closeSharedPglite(): Promise<void> {
  const db = shared;
  shared = undefined;
  await (await db)?.close();
}

/**
 * The three backends the durable suites run on: memory, PGlite in this process (the file's
 * shared one, a schema per store) and the test database (`db()`, opened in `beforeAll`).
 */
export const storeBackends = (db: () => TestDatabase): [string, () => Promise<TurnStore>][] => [
  ['memory', async () => memoryTurnStore()],
  ['pglite in this process', () => sharedPgliteStore()],
  ['the test database', () => openSqlTurnStore(poolDriver(db().pool(), db().driverOptions), { pollMs: 20 })],
];

/**
 * The file's test database and its shared PGlite, opened in `beforeAll` and closed in `afterAll`
 * (call it once, at the top of a test file); returns the test database, readable once opened.
 */
export function durableBackendsForFile(): () => TestDatabase {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await openTestDatabase();
    await startSharedPglite();
  }, 120_000);
  afterAll(async () => Promise.all([db?.close(), closeSharedPglite()]), 60_000);
  return () => db!;
}
