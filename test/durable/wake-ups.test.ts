import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnEventOf } from '../../src/index.js';
import { durableAgent, turnQueue, type TurnQueue, type TurnQueueOptions } from '../../src/durable/index.js';
import { pgliteQueueBackend, postgresQueueBackend, type QueueBackend } from './queue-backends.js';
import { durableBackendsForFile } from './shared-pglite.js';
import { untilTurn } from './until-turn.js';
import { worldAgent } from './world.js';

/**
 * Wake-ups without polling: a job sent on one instance (a submit, a decision's resume) starts on a
 * sleeping worker at once, through LISTEN/NOTIFY; polling stays the fallback. The workers here
 * poll once an hour, far past every test's timeout, so a turn that goes on was woken, not polled.
 */
const HOUR = 3600;
const db = durableBackendsForFile();
type Done = TurnEventOf<'done'>;

const backends: [string, () => Promise<QueueBackend>][] = [
  // where no PostgreSQL server answers, the test database is PGlite behind a socket (no LISTEN): then this runs on PGlite in this process too
  ['PostgreSQL', () => (db().backend === 'postgres' ? postgresQueueBackend(db()) : pgliteQueueBackend())],
  ['PGlite in this process', pgliteQueueBackend],
];

describe.each(backends)('turn queue wake-ups on %s', (label, open) => {
  let b: QueueBackend;
  const queues: TurnQueue[] = [];
  const tag = label.split(' ')[0].toLowerCase();
  beforeAll(async () => {
    b = await open();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(queues.map((q) => q.stop()));
    await b?.close();
  }, 60_000);

  const queue = async (name: string, options: Partial<TurnQueueOptions> = {}): Promise<TurnQueue> => {
    const q = await turnQueue(b.boss, { name, expireInSeconds: 600, ...options });
    queues.push(q);
    return q;
  };
  /** A worker slot polling every `pollSeconds`, after its first fetch came back empty: it sleeps until a wake-up or its next poll. */
  const sleepingWorker = async (name: string, pollSeconds: number, options: Partial<TurnQueueOptions> = {}): Promise<TurnQueue> => {
    const worker = await queue(name, options);
    await worker.work(durableAgent(worldAgent(), { store: b.store, owner: `worker-${name}`, onReady: worker.enqueue }), { concurrency: 1, pollingIntervalSeconds: pollSeconds });
    await b.emptyFetches(name, 1);
    return worker;
  };
  /** An app instance: its own queue object (no workers here), so its jobs reach the worker only through the database. */
  const appInstance = async (name: string, options: Partial<TurnQueueOptions>) => durableAgent(worldAgent(), { store: b.store, owner: 'app', onReady: (await queue(name, options)).enqueue });

  it('a decision on another instance wakes a sleeping worker at once: the turn resumes long before its next poll', async () => {
    const name = `wake-decision-${tag}`;
    await sleepingWorker(name, HOUR, { wakeUps: b.wakeUps });
    const app = await appInstance(name, { wakeUps: b.wakeUps });
    const parked = (await lastValueFrom(app.run({ message: 'note it', conversationId: `${name}-c` }))) as Done; // parked here: no job yet
    expect(parked.reason).toBe('paused');
    const turnId = parked.snapshot!.turnId;
    expect(await app.decide(turnId, parked.pending![0].requestId, 'yes', 'alice')).toMatchObject({ status: 'accepted', ready: true });
    const done = await untilTurn(b.store, () => turnId, (t) => t.status === 'done');
    expect(done.outcome).toEqual({ reason: 'final', text: 'noted' });
    expect(done.owner).toBe(`worker-${name}`);
  }, 30_000);

  it('a turn submitted on another instance starts at once on a sleeping worker', async () => {
    const name = `wake-submit-${tag}`;
    await sleepingWorker(name, HOUR, { wakeUps: b.wakeUps });
    const app = await appInstance(name, { wakeUps: b.wakeUps });
    const turnId = await app.submit({ message: 'plain one', conversationId: `${name}-c` });
    const done = await untilTurn(b.store, () => turnId, (t) => t.status === 'done');
    expect(done.outcome).toEqual({ reason: 'final', text: 'plain' });
  }, 30_000);

  it("without LISTEN, a job sent by the worker's own process wakes its slot, and a slot that ends a job fetches the next at once", async () => {
    const name = `wake-local-${tag}`;
    const worker = await sleepingWorker(name, HOUR); // no wakeUps
    const submit = durableAgent(worldAgent(), { store: b.store, owner: 'local', onReady: worker.enqueue }).submit;
    const ids = await Promise.all([1, 2, 3].map((i) => submit({ message: `plain ${i}`, conversationId: `${name}-${i}` })));
    for (const id of ids) expect((await untilTurn(b.store, () => id, (t) => t.status === 'done')).outcome).toEqual({ reason: 'final', text: 'plain' });
  }, 30_000);

  it('a job whose notification never came (an instance without wakeUps) is picked up by polling: nothing is lost', async () => {
    const name = `wake-missed-${tag}`;
    await sleepingWorker(name, 0.5, { wakeUps: b.wakeUps }); // pg-boss's shortest poll
    const app = await appInstance(name, {}); // sends no NOTIFY
    const parked = (await lastValueFrom(app.run({ message: 'note it', conversationId: `${name}-c` }))) as Done;
    const turnId = parked.snapshot!.turnId;
    await b.emptyFetches(name, 2); // the worker polls: it looked again and went back to sleep
    await app.decide(turnId, parked.pending![0].requestId, 'yes', 'alice');
    const done = await untilTurn(b.store, () => turnId, (t) => t.status === 'done');
    expect(done.outcome).toEqual({ reason: 'final', text: 'noted' });
  }, 30_000);
});
