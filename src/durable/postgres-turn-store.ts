import type { PgPool, PgPoolClient } from './pg-pool.js';
import type { SqlDriver } from './sql-migrations.js';
import { openSqlTurnStore, type SqlStoreOptions } from './sql-turn-store.js';
import type { TurnStore } from './turn-store.js';

/**
 * The turn store on PostgreSQL 13+ through a `pg` pool, for any number of instances: the schema
 * is migrated on first use (instances that start together wait on an advisory lock), and
 * watchers wake on LISTEN/NOTIFY on a connection of their own, polling as a safety net.
 * `close()` stops the watchers; the pool stays the caller's.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const store = await postgresTurnStore(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 * ```
 */
export async function postgresTurnStore(pool: PgPool, options: SqlStoreOptions = {}): Promise<TurnStore> {
  return openSqlTurnStore(poolDriver(pool), options);
}

/**
 * A `SqlDriver` on a `pg` pool. For PGlite served to other processes over a socket
 * (`@electric-sql/pglite-socket`), pass `{ listen: false, backend: 'pglite' }`: it does not
 * forward notifications between connections, so watchers poll.
 *
 * @example
 * ```ts
 * const store = await openSqlTurnStore(poolDriver(pool, { listen: false, backend: 'pglite' }));
 * ```
 */
export function poolDriver(pool: PgPool, options: { listen?: boolean; backend?: SqlDriver['backend'] } = {}): SqlDriver {
  return {
    backend: options.backend ?? 'postgres',
    async query<R>(text: string, params: readonly unknown[] = []) {
      return (await pool.query(text, params)).rows as R[];
    },
    async transaction<T>(work: (query: SqlDriver['query']) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(async <R>(text: string, params: readonly unknown[] = []) => (await client.query(text, params)).rows as R[]);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    ...(options.listen === false
      ? {}
      : {
          async listen(channel: string, onNotify: () => void) {
            const client: PgPoolClient = await pool.connect();
            const handler = (message: { channel: string }): void => {
              if (message.channel === channel) onNotify();
            };
            client.on('notification', handler);
            client.on('error', () => undefined); // a lost connection: polling carries on
            await client.query(`LISTEN ${channel}`);
            return async () => {
              client.off('notification', handler);
              await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
              client.release();
            };
          },
        }),
    async close() {
      // the pool is the caller's
    },
  };
}
