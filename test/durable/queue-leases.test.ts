import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableAgent, turnQueue, type TurnQueue, type TurnQueueOptions } from '../../src/durable/index.js';
import { pgliteQueueBackend, postgresQueueBackend, type QueueBackend } from './queue-backends.js';
import { durableBackendsForFile } from './shared-pglite.js';
import { slotStates, untilTurn } from './until-turn.js';
import { worldAgent } from './world.js';

/**
 * Leases on the queue's workers: a job for a turn whose worker is alive does nothing, and a
 * worker's sweep sends a job for a turn whose worker died once its lease ran out. The workers
 * poll once an hour, so a turn that goes on was sent a job by a sweep, not found by a poll.
 */
const HOUR = 3600;
const db = durableBackendsForFile();
const never = (_key: string, signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

const backends: [string, () => Promise<QueueBackend>][] = [
  ['PostgreSQL', () => (db().backend === 'postgres' ? postgresQueueBackend(db()) : pgliteQueueBackend())],
  ['PGlite in this process', pgliteQueueBackend],
];

describe.each(backends)('turn queue leases on %s', (label, open) => {
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

  it("a sweep sends a dead worker's turn a job once its lease ran out, and a worker takes it over", async () => {
    const name = `sweep-${tag}`;
    const turnId = `${name}-turn`;
    const dead = durableAgent(worldAgent({ slowDone: never }), { store: b.store, owner: 'dead', leaseMs: 300, heartbeatMs: 100 });
    const sub = dead.run({ message: 'crash swept', conversationId: `${name}-c`, ingress: { channel: 'cli', turnId } }).subscribe();
    await untilTurn(b.store, () => turnId, (t) => slotStates(t).join() === 'done,running,done');
    sub.unsubscribe(); // the worker dies: its lease runs out 300 ms after its last heartbeat
    const ran: string[] = [];
    const worker = await queue(name);
    await worker.work(durableAgent(worldAgent({ ran }), { store: b.store, owner: `worker-${name}`, leaseMs: 300 }), { concurrency: 1, pollingIntervalSeconds: HOUR, sweepMs: 50 });
    const done = await untilTurn(b.store, () => turnId, (t) => t.status === 'done');
    expect(done).toMatchObject({ owner: `worker-${name}`, attempt: 2, outcome: { reason: 'final', text: 'survived' } });
    expect(ran).toEqual([]); // the interrupted slot did not run again, the finished ones were kept
    const history = await b.store.history(`${name}-c`);
    expect(history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['value of a', '[interrupted before this tool produced a result]', 'value of z']);
  }, 30_000);

  it('a job for a turn whose worker is alive (a retry after expiry, a sweep of another instance) does nothing', async () => {
    const name = `alive-${tag}`;
    const turnId = `${name}-turn`;
    let finish!: () => void;
    const ran: string[] = [];
    const live = durableAgent(worldAgent({ ran, slowDone: () => new Promise<void>((resolve) => (finish = resolve)) }), { store: b.store, owner: 'live' });
    const events = lastValueFrom(live.run({ message: 'crash alive', conversationId: `${name}-c`, ingress: { channel: 'cli', turnId } }).pipe(toArray()));
    await untilTurn(b.store, () => turnId, (t) => slotStates(t).join() === 'done,running,done');
    const worker = await queue(name);
    await worker.work(durableAgent(worldAgent({ ran }), { store: b.store, owner: `worker-${name}` }), { concurrency: 1, pollingIntervalSeconds: HOUR });
    await b.emptyFetches(name, 1);
    await worker.enqueue((await b.store.getTurn(turnId))!);
    await b.emptyFetches(name, 2); // the job was taken and ended: the slot looked for the next one
    expect(await b.store.getTurn(turnId)).toMatchObject({ status: 'running', owner: 'live', attempt: 1 });
    finish();
    expect((await events).pop()).toMatchObject({ type: 'done', reason: 'final', text: 'survived' });
    expect(ran).toEqual(['lookup a', 'slow k', 'lookup z']);
    expect(await b.store.getTurn(turnId)).toMatchObject({ status: 'done', owner: 'live', attempt: 1 });
  }, 30_000);
});
