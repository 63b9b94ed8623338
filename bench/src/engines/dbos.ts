/**
 * DBOS Transact (`@dbos-inc/dbos-sdk`) carrying the engine comparison's flow on its own primitives:
 * a registered workflow `benchTurn(turnId)` whose steps are the turn's work, dequeued from a
 * database-backed `WorkflowQueue`, and DBOS's messages (`DBOSClient.send` → `DBOS.recv`) carrying
 * the decision. Everything lives in DBOS's system database, which is the bench's database (schema
 * `dbos`); the app is a `DBOSClient`, each worker process one launched DBOS with its own executor id.
 *
 * How work reaches a worker (read in the 5.3.0 sources, dist/src/wfqueue.js and system_database.js):
 * - dequeue is polling only: no NOTIFY on enqueue. Each process's dispatcher polls each queue every
 *   `minPollingIntervalMs` (the queue's `polling_interval_sec` row, default 1 s, any positive value
 *   allowed; ×2 per poll on lock contention, up to 120 s, then ×0.9 back down; ±5 % jitter): one
 *   transaction that SELECTs the ENQUEUED rows `FOR UPDATE SKIP LOCKED` up to the worker's free
 *   slots and flips them to PENDING with its executor id. Besides, once a second, it re-reads the
 *   `queues` table and moves DELAYED workflows due.
 * - `recv` is LISTEN/NOTIFY: an insert into `dbos.notifications` fires a trigger that
 *   `pg_notify`s 'dbos_notifications_channel' with `<workflow id>::<topic>`, which a LISTENing
 *   connection of each process hands to the waiting `recv`; it also re-SELECTs every
 *   `pollingIntervalMs` (default 10 s) in case a notification was lost.
 * - a workflow waiting in `recv` stays PENDING on its worker and holds one of the queue's
 *   `workerConcurrency` slots: parked turns count against `concurrency`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DBOS, DBOSClient, type DLogger } from '@dbos-inc/dbos-sdk';
import type { Engine, EngineApp, EngineWorker, WorkerOptions } from './engine.js';

/** The DBOS application every process names: it owns the queue and the workflows. */
const APP = 'rtl-bench';
const QUEUE = 'bench-turns';
const WORKFLOW = 'benchTurn';
const TOPIC = 'decision';
/**
 * The queue's polling interval. DBOS accepts any positive value, so there is no floor to take: at
 * 1 ms a worker process polls back to back (~200-400 transactions a second, idle or not, on this
 * machine); at 10 ms, ~100 a second, for a dequeue that waits ~5 ms on average. Like the worker
 * concurrency, it is the queue's row, shared by every worker (the last registration wins).
 */
const POLL_MS = 10;

/** The clients' logger: DBOS's warnings and errors, not its info lines ('Registered new queue: …'). */
const quiet: DLogger = { info: () => undefined, debug: () => undefined, warn: (e) => console.warn(e), error: (e) => console.error(e) };

/** How long a parked turn waits for its decision before it ends 'failed' (DBOS's default is 60 s). */
const RECV_TIMEOUT_S = 3600;

/** What `decide` sends and the parked workflow `recv`s. */
interface DecisionMessage {
  readonly requestId: string;
  readonly decision: 'yes' | 'no';
}

function installedVersion(): string {
  // the package's `exports` do not include its package.json: go up from its entry point (dist/src/index.js)
  const entry = createRequire(import.meta.url).resolve('@dbos-inc/dbos-sdk');
  return (JSON.parse(readFileSync(join(dirname(entry), '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * One turn, as a DBOS workflow: `work.start` is a step (its output, the snapshot and the request
 * id, is DBOS's checkpoint), the decision is a message on TOPIC, `work.finish` is a step. The hooks
 * run outside steps: a workflow replayed after a crash calls `parked` again (and `ended`, or
 * `resumed` if `finish` runs again); the bench does not crash workers, so that is acceptable here.
 * A decision whose request id is not the parked one, or a throw from the work, ends the turn 'failed'.
 */
async function benchTurn({ work, hooks }: WorkerOptions, turnId: string): Promise<'done' | 'failed'> {
  const run = async (): Promise<'done' | 'failed'> => {
    const { snapshot, requestId } = await DBOS.runStep(() => work.start(turnId), { name: 'start' });
    hooks.parked(turnId, requestId);
    // recv always has a deadline (60 s unless told), a durable one: its own step row ('DBOS.sleep')
    const message = await DBOS.recv<DecisionMessage>(TOPIC, { timeoutSeconds: RECV_TIMEOUT_S });
    if (message?.requestId !== requestId) return 'failed';
    const finish = () => work.finish(turnId, snapshot, requestId, message.decision, () => hooks.resumed(turnId));
    return DBOS.runStep(finish, { name: 'finish' });
  };
  const status = await run().catch(() => 'failed' as const);
  hooks.ended(turnId, status);
  return status;
}

/** The bench's DBOS Transact engine: see the top of this file. */
export const dbosEngine: Engine = {
  name: `DBOS Transact ${installedVersion()}`,

  /**
   * DBOS's system tables in schema `dbos` of the bench's database: `DBOS.migrate`, once, so that the
   * workers launch with `runMigrations: false` instead of racing to migrate (they verify the schema).
   */
  async install(url) {
    await DBOS.migrate(url);
  },

  /** A `DBOSClient` on the bench's database: `submit` enqueues `benchTurn`, `decide` sends it the decision. */
  async openApp(url): Promise<EngineApp> {
    const client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: APP, logger: quiet });
    return {
      async submit(turnId) {
        await client.enqueue({ queueName: QUEUE, workflowName: WORKFLOW, workflowID: turnId }, turnId);
      },
      async decide(turnId, requestId, decision) {
        const message: DecisionMessage = { requestId, decision };
        await client.send(turnId, message, TOPIC);
      },
      close: () => client.destroy(),
    };
  },

  /**
   * DBOS launched in this process (DBOS is a process-wide singleton: one worker per process) on the
   * bench's database as its system database, with `workerId` as its executor id, so that a launch
   * recovers only its own workflows, not those of the other workers.
   */
  async openWorker(url, options): Promise<EngineWorker> {
    // The queue's row before launch, so that the dispatcher's first read of `queues` finds it with
    // this worker's concurrency (a queue registered after launch is found at its next read, ≤ 1 s).
    const client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: APP, logger: quiet });
    try {
      await client.registerQueue(QUEUE, { workerConcurrency: options.concurrency, minPollingIntervalMs: POLL_MS, onConflict: 'always_update' });
    } finally {
      await client.destroy();
    }
    DBOS.registerWorkflow((turnId: string) => benchTurn(options, turnId), { name: WORKFLOW });
    DBOS.setConfig({
      name: APP,
      systemDatabaseUrl: url,
      executorID: options.workerId,
      runMigrations: false,
      listenQueues: [QUEUE],
      logLevel: 'warn',
    });
    await DBOS.launch();
    return {
      // Waits (a while) for the workflows still running here: `ended` is called before a workflow
      // returns, and its last writes (status, output) would be cut. deregister: the workflow's
      // registration goes with it, so that a process may open a worker again.
      close: () => DBOS.shutdown({ workflowCompletionTimeoutMS: 2000, deregister: true }),
    };
  },
};
