import type { PgliteDb } from './pglite-db.js';
import type { SqlDriver } from './sql-migrations.js';
import { openSqlTurnStore, type SqlStoreOptions } from './sql-turn-store.js';
import type { TurnStore } from './turn-store.js';

/** Options of `pgliteTurnStore`. */
export interface PgliteStoreOptions extends SqlStoreOptions {
  /** Where the database lives (created when missing); omitted: in memory. */
  readonly dataDir?: string;
  /** A PGlite of your own instead (it stays yours: `close()` leaves it open). */
  readonly db?: PgliteDb;
}

/**
 * The turn store on PGlite — real Postgres compiled to WebAssembly, shipped inside the npm
 * package `@electric-sql/pglite` — durable in `dataDir` on one machine, with nothing to install.
 * One process opens the directory; other processes reach it through `@electric-sql/pglite-socket`
 * with `openSqlTurnStore(poolDriver(pool, { listen: false, backend: 'pglite' }))`.
 *
 * @example
 * ```ts
 * const store = await pgliteTurnStore({ dataDir: './.turns' });
 * ```
 */
export async function pgliteTurnStore(options: PgliteStoreOptions = {}): Promise<TurnStore> {
  const own = options.db === undefined;
  const db = options.db ?? (await (await import('@electric-sql/pglite')).PGlite.create(options.dataDir));
  return openSqlTurnStore(pgliteDriver(db, own), options);
}

/** A `SqlDriver` on a PGlite in this process (it has LISTEN). */
function pgliteDriver(db: PgliteDb, own: boolean): SqlDriver {
  return {
    backend: 'pglite',
    async query<R>(text: string, params: readonly unknown[] = []) {
      return (await db.query<R>(text, params)).rows;
    },
    transaction: <T>(work: (query: SqlDriver['query']) => Promise<T>) =>
      db.transaction((tx) => work(async <R>(text: string, params: readonly unknown[] = []) => (await tx.query<R>(text, params)).rows)),
    async listen(channel, onNotify) {
      const off = await db.listen(channel, onNotify);
      return async () => off();
    },
    async close() {
      if (own) await db.close();
    },
  };
}
