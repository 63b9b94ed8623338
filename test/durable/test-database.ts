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
        // the database goes first: FORCE ends every connection to it, so a client a test left
        // checked out (a LISTEN connection) errors and is released, and the pools end without waiting on it
        const drop = new pg.Client({ ...SERVER, user: 'postgres', database: 'postgres' });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await drop.end();
        await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create();
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 100 });
  oneBatchAtATime(server);
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

/** One queued frontend message of a connection, as `@electric-sql/pglite-socket` (0.2.17) queues it. */
interface Queued {
  readonly handlerId: number;
  readonly message: Uint8Array;
  readonly onData: (data: Uint8Array) => void;
  resolve(bytes: number): void;
  reject(error: unknown): void;
}

/** Frontend messages of the extended protocol that leave a batch open until its Sync. */
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

/**
 * pglite-socket runs every connection's messages on PGlite's one session, one message at a time,
 * keeping to one connection only inside a transaction (electric-sql/pglite#1046). A pool's
 * Parse/Bind/Execute/Sync outside one interleave with another connection's: one binds the
 * other's unnamed statement, and gets an error or wrong rows — none, for a console replaying a
 * turn, whose stream then waits forever. So here a connection keeps the session from a Parse to
 * its Sync (and through a transaction, as before).
 */
function oneBatchAtATime(server: object): void {
  const queue = (server as unknown as { queryQueue: Record<string, unknown> }).queryQueue as {
    queue: Queued[];
    processing: boolean;
    lastHandlerId: number | null;
    db: { isInTransaction(): boolean; runExclusive<T>(fn: () => Promise<T>): Promise<T>; execProtocolRawStream(m: Uint8Array, o: { onRawData: (d: Uint8Array) => void }): Promise<unknown> };
    processQueue(): Promise<void>;
    clearQueueForHandler(id: number): void;
  };
  // the pinned pglite-socket's queue; a release that changes it fails here, not in a hung test
  if (!Array.isArray(queue?.queue) || typeof queue.processQueue !== 'function' || typeof queue.clearQueueForHandler !== 'function') {
    throw new Error('@electric-sql/pglite-socket changed its query queue: review oneBatchAtATime (electric-sql/pglite#1046)');
  }
  let batch: number | null = null; // the connection between a Parse and its Sync
  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (id) => {
    if (batch === id) batch = null; // it went away mid-batch
    clear(id);
  };
  queue.processQueue = async function (this: typeof queue) {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = batch ?? (this.db.isInTransaction() ? this.lastHandlerId : null);
        const index = owner === null ? 0 : this.queue.findIndex((q) => q.handlerId === owner);
        if (index === -1) break; // the owner's next message is on its way
        const [next] = this.queue.splice(index, 1);
        let bytes = 0;
        try {
          await this.db.runExclusive(() => this.db.execProtocolRawStream(next.message, { onRawData: (d) => ((bytes += d.length), next.onData(d)) }));
        } catch (error) {
          next.reject(error);
          continue;
        }
        this.lastHandlerId = next.handlerId;
        batch = EXTENDED.has(next.message[0]) ? next.handlerId : null; // a Sync (or a simple Query) ends it
        next.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
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

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
