import { catchError, defer, EMPTY, exhaustMap, interval, lastValueFrom, type Observable, type Subscription } from 'rxjs';
import type { DurableAgent } from './durable-agent.js';
import { firstQueued } from './turn-claims.js';
import { ConversationBusyError } from './durable-errors.js';
import { isStoreId } from './durable-ids.js';
import { jobWakeUps, type WakeUps } from './job-wake-ups.js';
import type { PgBossClient, PgBossJob } from './pg-boss-client.js';
import { pruneTurns, type PruneTurnsOptions } from './prune-turns.js';
import type { StoredTurn, TurnStore } from './turn-store.js';

/** Options of `turnQueue`. */
export interface TurnQueueOptions {
  /** The pg-boss queue's name. Default 'rtl-turns'. */
  readonly name?: string;
  /**
   * How long a job may run before pg-boss retries it (pg-boss 10 has no heartbeat of its own). A
   * retry takes the turn over only once the turn's lease ran out (`durableAgent`'s `leaseMs`): a
   * live worker renews it, so a retry of a long turn finds it held and does nothing. Default 900.
   */
  readonly expireInSeconds?: number;
  /** How often a job is retried (a crashed worker's, an expired one). Default 5. */
  readonly retryLimit?: number;
  /**
   * How long a turn whose conversation is busy (another turn of it running, or one queued before
   * it) waits before its job asks again: the job is sent again with this `startAfter`, and the
   * next poll after that finds it (a conversation's next turn also gets a job at once when its
   * running turn ends). Default 2.
   */
  readonly busyRetrySeconds?: number;
  /**
   * Wake-ups without polling: after each job it sends, the queue NOTIFYs a channel of its own
   * through `wakeUps.query`, and `work` LISTENs on it through `wakeUps.listen`, so a submit or a
   * decision on any instance makes an idle worker fetch at once. Pass `poolDriver(pool)` on every
   * instance (app instances send, workers listen). A listening process holds one of the pool's
   * connections, and its NOTIFYs need another: give it a pool of at least 2. Without it, or where the driver has no `listen` (PGlite behind a socket),
   * workers find jobs by polling, as they still do for a notification that was lost.
   */
  readonly wakeUps?: WakeUps;
  /**
   * Retention, run by each process that `work`s (`pruneTurns` on the durable agent's store): at
   * start and then every hour, finished turns last written more than 7 days ago are deleted with
   * their events and audit entries; never a queued, running or parked turn. `false`: never
   * (prune with `store.prune` yourself). Failures are logged as warnings.
   */
  readonly retention?: PruneTurnsOptions | false;
}

/** Turns as pg-boss jobs: `enqueue` is `durableAgent`'s `onReady`; `work` runs them here. */
export interface TurnQueue {
  readonly name: string;
  enqueue(turn: StoredTurn): Promise<void>;
  /**
   * Runs up to `concurrency` turns at once in this process (default 4); resolves when polling
   * started. Each slot fetches again at once after each job, and polls every
   * `pollingIntervalSeconds` for jobs no wake-up announced: default 5 where it LISTENs for
   * `wakeUps` (polls are only the fallback then), else 0.5 (pg-boss's minimum). Every
   * `sweepMs` (default half of `durable.leaseMs`) it sends a job for each of the agent's running
   * turns whose lease ran out — their worker died — and a worker takes each one over.
   */
  work(durable: DurableAgent, options?: { concurrency?: number; pollingIntervalSeconds?: number; sweepMs?: number }): Promise<void>;
  /** Stops this process's workers (running turns finish first). */
  stop(): Promise<void>;
}

/**
 * A queue of turns on pg-boss (10.x: the newest release that runs on Node 20), shared by any
 * number of worker processes on any machines. Workers start a job as soon as it is sent: a job
 * sent in this process wakes an idle slot here, and with `wakeUps` a NOTIFY wakes one in every
 * process (`jobWakeUps`); pg-boss's polling stays the fallback. At most one turn per conversation runs at a time,
 * and a conversation's queued turns start in the order they were submitted; a busy conversation
 * never holds up another's turns. pg-boss's `singleton` policy would hold them up: its fetch
 * takes the oldest jobs and, when the first one's key is already active, fails on the unique
 * index and returns nothing, so idle workers wait behind that conversation. So the queue's
 * policy is `standard` (an older queue is switched to it), and the conversation's turn is
 * claimed in the store with `durable.continue(id, { exclusive: true })`: refused while another
 * of its turns runs (checked and claimed atomically) or an earlier one is queued, the job is
 * sent again `busyRetrySeconds` later and completes. A worker that ends a turn sends the
 * conversation's next queued turn a job at once. A parked turn resumes as a new job when its
 * last decision arrives. A live worker renews the lease of each turn it runs; one that dies
 * stops, and once the lease ran out a sweep on any worker sends the turn a job, which takes it
 * over from its journal (`takeOver: 'expired'`) — until then its conversation's next turns
 * wait, other conversations do not.
 *
 * A job is only a nudge, never an authority: its payload must be exactly `{ turnId }` (a string)
 * or the job is dropped with a warning, and the worker then does only what the store allows —
 * it never runs another agent's turn (one queue per agent: give each its own `name`), and a
 * parked turn resumes only once every request it waits for is decided. So a job row inserted
 * straight into pg-boss's table runs nothing that no one approved.
 *
 * @example
 * ```ts
 * import PgBoss from 'pg-boss';
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * await boss.start();
 * const queue = await turnQueue(boss, { wakeUps: poolDriver(pool) });
 * const durable = durableAgent(agent, { store, onReady: queue.enqueue });
 * await queue.work(durable, { concurrency: 8 });
 * await durable.submit({ message: 'tidy the repo', conversationId: 'c1' });
 * ```
 */
export async function turnQueue(boss: PgBossClient, options: TurnQueueOptions = {}): Promise<TurnQueue> {
  const name = options.name ?? 'rtl-turns';
  const expireInSeconds = options.expireInSeconds ?? 900;
  const retryLimit = options.retryLimit ?? 5;
  const busyRetrySeconds = options.busyRetrySeconds ?? 2;
  await boss.createQueue(name, { name, policy: 'standard', expireInSeconds, retryLimit, retryDelay: 0 });
  await boss.updateQueue(name, { name, policy: 'standard' }); // a queue created `singleton` by an earlier release
  const wake = jobWakeUps(boss, name, options.wakeUps);
  const send = async (turnId: string, startAfter?: number): Promise<void> => {
    await boss.send(name, { turnId }, { expireInSeconds, retryLimit, ...(startAfter === undefined ? {} : { startAfter }) });
    if (startAfter === undefined) await wake.sent(); // a job due later is found by a poll
  };
  /** The conversation's next queued turn gets a job when none of its turns runs: it starts now, and one whose enqueue failed starts at all (one read for both). */
  const nudge = async (store: TurnStore, conversationId: string): Promise<void> => {
    const open = await store.listTurns({ conversationId, status: ['running', 'queued'] });
    const next = open.some((t) => t.status === 'running') ? undefined : firstQueued(open);
    if (next) await send(next.turnId);
  };
  const workers: string[] = [];
  /** The worker's timers (the lease sweep, the prune): ended by `stop`. */
  const timers: Subscription[] = [];
  return {
    name,
    async enqueue(turn) {
      await send(turn.turnId);
    },
    async work(durable, workOptions = {}) {
      const run = async (job: PgBossJob<unknown>): Promise<void> => {
        const turnId = turnIdOf(job.data);
        if (turnId === undefined) {
          durable.agent.resolved.logger.warn({ queue: name, jobId: job.id }, 'turn queue: dropped a job whose payload is not { turnId }');
          return;
        }
        let conversationId = null as string | null; // the turn's, as continue read it
        try {
          // a running turn is taken over only once its lease ran out: its worker died (a sweep's job, a retry)
          const onTurn = (turn: StoredTurn): void => void (conversationId = turn.conversationId);
          await lastValueFrom(durable.continue(turnId, { takeOver: 'expired', exclusive: true, onTurn }), { defaultValue: undefined });
        } catch (error) {
          if (!(error instanceof ConversationBusyError)) throw error; // the job fails; pg-boss retries it (a takeover)
          await send(turnId, busyRetrySeconds); // before this job completes: a crash in between leaves a duplicate, never nothing
          return nudge(durable.store, error.conversationId);
        }
        if (conversationId !== null) await nudge(durable.store, conversationId);
      };
      if (options.retention !== false) {
        const onError = (error: unknown): void => durable.agent.resolved.logger.warn({ queue: name, error: String(error) }, 'turn queue: a prune failed');
        timers.push(pruneTurns(durable.store, { onError, ...options.retention }).subscribe());
      }
      const concurrency = workOptions.concurrency ?? 4;
      const listening = await wake.listen(); // before the slots: a wake-up that comes first is what their first fetch finds
      const pollingIntervalSeconds = workOptions.pollingIntervalSeconds ?? (listening ? 5 : 0.5);
      for (let i = 0; i < concurrency; i += 1) {
        let id: string | undefined; // pg-boss names the slot once it started polling
        id = await boss.work<unknown>(
          name,
          { batchSize: 1, includeMetadata: true, pollingIntervalSeconds },
          async ([job]) => {
            const slot = id;
            if (slot === undefined) return run(job);
            wake.busy(slot);
            try {
              return await run(job);
            } finally {
              wake.idle(slot);
              boss.notifyWorker(slot); // fetch again at once: more jobs may be waiting
            }
          },
        );
        wake.idle(id);
        workers.push(id);
      }
      timers.push(sweepExpired(durable, send, workOptions.sweepMs ?? Math.ceil(durable.leaseMs / 2)).subscribe());
    },
    async stop() {
      for (const running of timers.splice(0)) running.unsubscribe();
      await Promise.all(workers.splice(0).map((id) => boss.offWork({ id })));
      await wake.stop();
    },
  };
}

/**
 * Every `sweepMs`, a job for each running turn of the agent whose lease ran out (one sweep at a
 * time, `exhaustMap`; a failed one is tried again at the next). Each worker process sweeps: the
 * turn's claim is atomic, so of the jobs sent for one turn, one takes it over.
 */
function sweepExpired(durable: DurableAgent, send: (turnId: string) => Promise<void>, sweepMs: number): Observable<unknown> {
  return interval(sweepMs).pipe(
    exhaustMap(() =>
      defer(async () => Promise.all((await durable.store.expiredTurns(durable.agent.resolved.name)).map((turnId) => send(turnId)))).pipe(
        catchError(() => EMPTY), // the store or the queue is out of reach: the next sweep tries again
      ),
    ),
  );
}

/** The turn id of a job's payload when it is exactly `{ turnId }`, an id a store keeps (`isStoreId`). */
function turnIdOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const keys = Object.keys(data);
  const turnId = (data as { turnId?: unknown }).turnId;
  return keys.length === 1 && keys[0] === 'turnId' && isStoreId(turnId) ? turnId : undefined;
}
