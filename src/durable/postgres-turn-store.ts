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
 * A `SqlDriver` on a `pg` pool; its LISTENs (the store's watchers, a queue's wake-ups) share one
 * connection of the pool. For PGlite served to other processes over a socket
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
    ...(options.listen === false ? {} : { listen: sharedListener(pool) }),
    async close() {
      // the pool is the caller's
    },
  };
}

/**
 * LISTEN on one connection of the pool for every channel: it is checked out with the first
 * channel and given back when the last one is left. A lost connection is dropped (polling
 * carries on) and the next LISTEN opens another.
 */
function sharedListener(pool: PgPool): NonNullable<SqlDriver['listen']> {
  let client: Promise<PgPoolClient> | undefined;
  const channels = new Map<string, { readonly handlers: Set<(payload: string) => void>; readonly ready: Promise<unknown> }>();
  const deliver = (message: { channel: string; payload?: string | undefined }): void => {
    for (const handler of [...(channels.get(message.channel)?.handlers ?? [])]) handler(message.payload ?? '');
  };
  const connect = (): Promise<PgPoolClient> => {
    const opened = pool.connect().then((c) => {
      c.on('notification', deliver);
      c.on('error', () => {
        if (client !== opened) return;
        client = undefined; // polling carries on; the next LISTEN opens another connection
        channels.clear();
        c.release(true);
      });
      return c;
    });
    opened.catch(() => {
      if (client === opened) client = undefined;
    });
    return opened;
  };
  let joining = 0; // LISTENs waiting for the connection: it is not given back under them
  return async (channel, onNotify) => {
    const opened = (client ??= connect());
    joining += 1;
    let c: PgPoolClient;
    try {
      c = await opened;
    } finally {
      joining -= 1;
    }
    let entry = channels.get(channel);
    if (!entry) {
      const created = { handlers: new Set<(payload: string) => void>(), ready: c.query(`LISTEN ${channel}`) };
      created.ready.catch(() => channels.get(channel) === created && channels.delete(channel));
      channels.set(channel, (entry = created));
    }
    const joined = entry;
    const own = (payload: string): void => onNotify(payload);
    joined.handlers.add(own);
    await joined.ready.catch((error: unknown) => {
      joined.handlers.delete(own);
      throw error;
    });
    return async () => {
      joined.handlers.delete(own);
      if (joined.handlers.size > 0 || channels.get(channel) !== joined) return;
      channels.delete(channel);
      await c.query(`UNLISTEN ${channel}`).catch(() => undefined);
      if (channels.size === 0 && joining === 0 && client === opened) {
        client = undefined;
        c.off('notification', deliver);
        c.release();
      }
    };
  };
}
