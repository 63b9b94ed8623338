import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openTestDatabase } from '../../test/durable/test-database.js';

/** The durable bench's database: a connection string every process uses, and how to drop it. */
export interface BenchDatabase {
  readonly backend: 'postgres' | 'pglite';
  readonly url: string;
  /** What it is, for the report. */
  readonly label: string;
  close(): Promise<void>;
}

const SERVER = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' };

/**
 * A fresh database of the bench's own on the PostgreSQL server at 127.0.0.1:5432, dropped by
 * `close()`; where none answers (or it refuses CREATE DATABASE), PGlite served over a socket by
 * this process, as the durable tests do it (`test/durable/test-database.ts`).
 */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  const name = `rtl_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ ...SERVER, connectionTimeoutMillis: 2000 });
  let version: string | undefined;
  try {
    await admin.connect();
    version = String((await admin.query('SHOW server_version')).rows[0].server_version);
    await admin.query(`CREATE DATABASE ${name}`);
  } catch {
    version = undefined;
  } finally {
    await admin.end().catch(() => undefined);
  }
  if (version !== undefined) {
    return {
      backend: 'postgres',
      url: `postgres://${SERVER.user}@${SERVER.host}:${SERVER.port}/${name}`,
      label: `PostgreSQL ${version} at ${SERVER.host}:${SERVER.port}`,
      async close() {
        const drop = new pg.Client(SERVER);
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await drop.end();
      },
    };
  }
  const db = await openTestDatabase();
  const label = db.backend === 'pglite' ? 'PGlite over @electric-sql/pglite-socket (no PostgreSQL answered)' : 'PostgreSQL (the test database)';
  return { backend: db.backend, url: db.url, label, close: () => db.close() };
}

/**
 * pg_stat_database's counters of the database `pool` connects to: committed transactions (reads
 * too) and rows inserted, updated or deleted. Backends flush them within about a second of going
 * idle, so read them after a pause in the work.
 */
export async function databaseCounters(pool: pg.Pool): Promise<{ commits: number; rows: number }> {
  const { rows } = await pool.query<{ commits: string; rows: string }>(
    'SELECT xact_commit AS commits, tup_inserted + tup_updated + tup_deleted AS rows FROM pg_stat_database WHERE datname = current_database()',
  );
  return { commits: Number(rows[0].commits), rows: Number(rows[0].rows) };
}
