import PgBoss from 'pg-boss';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, pauseForApproval, type ApprovalPolicy, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { durableAgent, openSqlTurnStore, poolDriver, turnQueue, type DurableAgent, type TurnQueue, type TurnStore } from '../../src/durable/index.js';
import { recordingLogger } from '../prep/harness.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';
import { WORLD_SNAPSHOT_KEY, worldModel, worldTools } from './world.js';

/**
 * Job rows written straight into pg-boss's table — naming a parked turn with no decision,
 * another agent's turn, or carrying a crafted payload — reach real workers on a real database.
 * A job is a nudge, never an authority: the worker does only what the store allows, so no tool
 * runs that no one approved, and a payload that is not `{ turnId }` is dropped.
 */

type Done = TurnEventOf<'done'>;
const collect = (events$: Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));

/** The world's agent under a name and a policy (the same tools, script and snapshot key). */
function agentOf(name: string, policy: ApprovalPolicy, ran: string[], logger = recordingLogger()) {
  const approval = new ApprovalManager(policy, pauseForApproval());
  return createAgent({ name, provider: worldModel(), model: 'm', tools: worldTools({ ran }), approval, clock: { now: () => 0 }, snapshotKey: WORLD_SNAPSHOT_KEY, logger });
}

let db: TestDatabase;
let store: TurnStore;
let boss: PgBoss;
let strictQueue: TurnQueue;
let looseQueue: TurnQueue;
let app: DurableAgent;
const strictRan: string[] = [];
const looseRan: string[] = [];
const strictLog = recordingLogger();
beforeAll(async () => {
  db = await openTestDatabase();
  store = await openSqlTurnStore(poolDriver(db.pool(), db.driverOptions), { pollMs: 50 });
  boss = new PgBoss({ connectionString: db.url, max: 4, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  strictQueue = await turnQueue(boss, { name: 'forged-world', expireInSeconds: 600 });
  looseQueue = await turnQueue(boss, { name: 'forged-loose', expireInSeconds: 600 });
  // the app enqueues nothing: every job in these queues is forged
  app = durableAgent(agentOf('world', { level: 'supervised' }, []), { store, owner: 'app' });
  await strictQueue.work(durableAgent(agentOf('world', { level: 'supervised' }, strictRan, strictLog), { store, owner: 'strict' }), { concurrency: 1, pollingIntervalSeconds: 0.5 });
  await looseQueue.work(durableAgent(agentOf('loose', { level: 'full' }, looseRan), { store, owner: 'loose' }), { concurrency: 1, pollingIntervalSeconds: 0.5 });
}, 120_000);
afterAll(async () => {
  await strictQueue?.stop();
  await looseQueue?.stop();
  await boss?.stop({ graceful: false, wait: true });
  await store?.close();
  await db?.close();
}, 60_000);

/** Inserts a job row by hand and resolves with its final state once a worker is done with it. */
async function forge(queue: TurnQueue, data: unknown, retryCount = 0): Promise<string> {
  const pool = db.pool(1);
  const { rows } = await pool.query<{ id: string }>('INSERT INTO pgboss.job (name, data, retry_count, retry_limit) VALUES ($1, $2::jsonb, $3, 0) RETURNING id', [
    queue.name,
    data === undefined ? null : JSON.stringify(data),
    retryCount,
  ]);
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const job = await boss.getJobById(queue.name, rows[0].id);
    if (job && ['completed', 'failed', 'cancelled'].includes(job.state)) return job.state;
  }
  throw new Error(`job ${rows[0].id} was never finished`);
}

const parked = async (conversationId: string) => (await collect(app.run({ message: 'note this', conversationId }))).at(-1) as Done;
const statusOf = async (turnId: string) => (await store.getTurn(turnId))!.status;

describe('a forged job naming a parked turn without its decision resumes nothing', () => {
  it('with retry_count 0 or 2 (a take-over): both jobs complete, the turn stays parked, write never runs', async () => {
    const turn = await parked('forged-1');
    const turnId = turn.snapshot!.turnId;
    expect(await forge(strictQueue, { turnId })).toBe('completed');
    expect(await forge(strictQueue, { turnId }, 2)).toBe('completed');
    expect(await statusOf(turnId)).toBe('parked');
    expect(strictRan).not.toContain('write hello');
    // once decided, the same forged nudge resumes it: the store, not the job, decides
    await app.decide(turnId, turn.pending![0].requestId, 'yes', 'alice');
    expect(await forge(strictQueue, { turnId })).toBe('completed');
    expect(await statusOf(turnId)).toBe('done');
    expect(strictRan.filter((r) => r === 'write hello')).toHaveLength(1);
  }, 90_000);
});

describe("a forged job naming another agent's turn is not run by this agent's worker", () => {
  it("a queued turn of 'world' sent to the worker of 'loose' (approves everything): nothing runs there", async () => {
    const turnId = await app.submit({ message: 'note this', conversationId: 'forged-2' });
    expect(await forge(looseQueue, { turnId })).toBe('completed');
    expect(await forge(looseQueue, { turnId }, 3)).toBe('completed');
    expect(looseRan).toEqual([]);
    expect(await statusOf(turnId)).toBe('queued');
    // its own agent's worker runs it, and parks at the write as that agent's policy says
    expect(await forge(strictQueue, { turnId })).toBe('completed');
    expect(await statusOf(turnId)).toBe('parked');
  }, 90_000);

  it("a decided parked turn of 'world' sent to 'loose': left parked for its own agent, not failed", async () => {
    const turn = await parked('forged-3');
    const turnId = turn.snapshot!.turnId;
    await app.decide(turnId, turn.pending![0].requestId, 'yes', 'alice');
    expect(await forge(looseQueue, { turnId })).toBe('completed');
    expect(await statusOf(turnId)).toBe('parked');
    expect(looseRan).toEqual([]);
    expect(await forge(strictQueue, { turnId })).toBe('completed');
    expect(await statusOf(turnId)).toBe('done');
  }, 90_000);
});

describe('a crafted payload is dropped, with a warning, and runs nothing', () => {
  it('anything but exactly { turnId: string }: the job completes (no retry), nothing runs, the turn is untouched', async () => {
    const turn = await parked('forged-4');
    const turnId = turn.snapshot!.turnId;
    const payloads: unknown[] = [
      undefined,
      42,
      'turnId',
      [turnId],
      {},
      { turnId: 42 },
      { turnId: '' },
      { turnId: [turnId] },
      { turnId: { $ne: '' } },
      { turnId, takeOver: true },
      { turnId, decisions: { [turn.pending![0].requestId]: 'yes' } },
      { turnId: 'x'.repeat(5_000) },
    ];
    const warned = strictLog.warnings.length;
    const ranBefore = strictRan.length;
    const states = await Promise.all(payloads.map((data) => forge(strictQueue, data)));
    expect(states).toEqual(payloads.map(() => 'completed'));
    expect(strictRan.length).toBe(ranBefore);
    expect(await statusOf(turnId)).toBe('parked');
    expect(await store.decisions(turnId)).toEqual([]);
    expect(strictLog.warnings.slice(warned).map((w) => w.msg)).toEqual(payloads.map(() => 'turn queue: dropped a job whose payload is not { turnId }'));
  }, 120_000);
});
