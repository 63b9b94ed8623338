import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';

/**
 * A database of the test run's own: on the PostgreSQL server this machine runs at
 * 127.0.0.1:5432 (a new database with a random name, dropped at the end), or — where no server
 * answers, or with RTL_TEST_BACKEND=pglite — PGlite served over a socket by this process
 * (`@electric-sql/pglite-socket`), which other processes reach the same way; also where the
 * server answers but refuses to create the database. Never skipped.
 */
export interface TestDatabase {
  readonly backend: 'postgres' | 'pglite';
  /** A connection string other processes can use. */
  readonly url: string;
  /** Options for the store's driver: PGlite behind a socket forwards no notifications. */
  readonly driverOptions: { listen?: boolean; backend?: 'postgres' | 'pglite' };
  pool(max?: number): pg.Pool;
  close(): Promise<void>;
}

const SERVER = { host: '127.0.0.1', port: 5432 };

async function serverAnswers(): Promise<boolean> {
  if (process.env.RTL_TEST_BACKEND === 'pglite') return false;
  const client = new pg.Client({ ...SERVER, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const pools: pg.Pool[] = [];
  const pool = (url: string) => (max = 10) => {
    const p = new pg.Pool({ connectionString: url, max });
    p.on('error', () => undefined);
    pools.push(p);
    return p;
  };
  const name = `rtl_test_${randomBytes(6).toString('hex')}`;
  if ((await serverAnswers()) && (await createDatabase(name))) {
    const url = `postgres://postgres@${SERVER.host}:${SERVER.port}/${name}`;
    console.info(`durable tests: backend PostgreSQL server at ${SERVER.host}:${SERVER.port}, database ${name}`);
    return {
      backend: 'postgres',
      url,
      driverOptions: {},
      pool: pool(url),
      async close() {
        await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
        const drop = new pg.Client({ ...SERVER, user: 'postgres', database: 'postgres' });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await drop.end();
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create();
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 100 });
  await server.start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  console.info(`durable tests: no PostgreSQL server answers at ${SERVER.host}:${SERVER.port}; backend PGlite over a socket at 127.0.0.1:${port}`);
  return {
    backend: 'pglite',
    url,
    driverOptions: { listen: false, backend: 'pglite' },
    pool: pool(url),
    async close() {
      await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
      await server.stop();
      await db.close();
    },
  };
}

/** Creates the run's database; false when the server refuses (then the run falls back to PGlite). */
async function createDatabase(name: string): Promise<boolean> {
  const admin = new pg.Client({ ...SERVER, user: 'postgres', database: 'postgres' });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    return true;
  } catch (error) {
    console.info(`durable tests: the server at ${SERVER.host}:${SERVER.port} refused CREATE DATABASE (${(error as Error).message})`);
    return false;
  } finally {
    await admin.end().catch(() => undefined);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
