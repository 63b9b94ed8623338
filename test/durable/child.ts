/**
 * A process of the durable suites (started with `node --import tsx test/durable/child.ts …`):
 * the test process is another instance; this one parks, decides, continues or works turns on
 * the same database (RTL_DB_URL; RTL_DB_BACKEND=pglite for PGlite behind a socket, which only
 * polls). It prints one JSON line per result and `ran <tool> <key> <conversation>` per tool start.
 * A worker's lease is RTL_LEASE milliseconds when given.
 */
import { lastValueFrom } from 'rxjs';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { TurnEventOf } from '../../src/index.js';
import { durableAgent, openSqlTurnStore, poolDriver, turnQueue } from '../../src/durable/index.js';
import { worldAgent } from './world.js';

const [command, ...args] = process.argv.slice(2);
const url = process.env.RTL_DB_URL!;
const pglite = process.env.RTL_DB_BACKEND === 'pglite';
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

const pool = new pg.Pool({ connectionString: url, max: 4 });
pool.on('error', () => undefined);
const store = await openSqlTurnStore(poolDriver(pool, pglite ? { listen: false, backend: 'pglite' } : {}), { pollMs: 50 });
const ran: string[] = [];
const agent = worldAgent({
  onSlowStart: (key) => process.stdout.write(`slow-started ${key}\n`),
  // a slow tool never finishes in a worker that is about to be killed; after a restart it is not called again
  slowDone: (_key, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
  ran: new Proxy(ran, {
    get: (target, prop) =>
      prop === 'push'
        ? (line: string) => {
            process.stdout.write(`ran ${line}\n`);
            return target.push(line);
          }
        : Reflect.get(target, prop),
  }),
});

type Done = TurnEventOf<'done'>;
if (command === 'park') {
  const durable = durableAgent(agent, { store });
  const done = (await lastValueFrom(durable.run({ message: args[0], conversationId: args[1] }))) as Done;
  print({ turnId: done.snapshot?.turnId, reason: done.reason, pending: done.pending?.map((p) => p.requestId) });
} else if (command === 'decide') {
  const durable = durableAgent(agent, { store });
  print(await durable.decide(args[0], args[1], args[2] as 'yes', `process ${process.pid}`));
} else if (command === 'continue') {
  const durable = durableAgent(agent, { store });
  const done = (await lastValueFrom(durable.continue(args[0]))) as Done;
  print({ reason: done.reason, text: done.text, history: done.history });
} else if (command === 'worker') {
  const boss = new PgBoss({ connectionString: url, max: 4, maintenanceIntervalSeconds: 1, monitorStateIntervalSeconds: 60 });
  boss.on('error', () => undefined);
  await boss.start();
  const queue = await turnQueue(boss, { name: process.env.RTL_QUEUE ?? 'rtl-turns', expireInSeconds: Number(process.env.RTL_EXPIRE ?? 30) });
  const leaseMs = process.env.RTL_LEASE === undefined ? undefined : Number(process.env.RTL_LEASE);
  const durable = durableAgent(agent, { store, onReady: queue.enqueue, owner: `worker-${process.pid}`, ...(leaseMs ? { leaseMs } : {}) });
  await queue.work(durable, { concurrency: Number(args[0] ?? 4) });
  process.stdout.write('worker-ready\n');
  process.on('SIGTERM', () => {
    void queue.stop().then(() => boss.stop({ graceful: false })).then(() => process.exit(0));
  });
  await new Promise(() => undefined);
}
await store.close();
await pool.end();
process.exit(0);
