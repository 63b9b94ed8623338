import { lastValueFrom } from 'rxjs';
import type PgBoss from 'pg-boss';
import type { DurableAgent } from './durable-agent.js';
import type { StoredTurn } from './turn-store.js';

/** Options of `turnQueue`. */
export interface TurnQueueOptions {
  /** The pg-boss queue's name. Default 'rtl-turns'. */
  readonly name?: string;
  /**
   * How long a job may run before pg-boss counts its worker dead and retries it elsewhere (the
   * retry takes the turn over from its journal). pg-boss 10 has no heartbeat: this must exceed
   * the longest whole job — from its claim to the turn's park or end — or a live worker's turn
   * is taken over (fenced: its writes are refused, but its running tool is not stopped). Default 900.
   */
  readonly expireInSeconds?: number;
  /** How often a job is retried (a crashed worker's, an expired one). Default 5. */
  readonly retryLimit?: number;
}

/** Turns as pg-boss jobs: `enqueue` is `durableAgent`'s `onReady`; `work` runs them here. */
export interface TurnQueue {
  readonly name: string;
  enqueue(turn: StoredTurn): Promise<void>;
  /** Runs up to `concurrency` turns at once in this process (default 4); resolves when polling started. */
  work(durable: DurableAgent, options?: { concurrency?: number; pollingIntervalSeconds?: number }): Promise<void>;
  /** Stops this process's workers (running turns finish first). */
  stop(): Promise<void>;
}

/**
 * A queue of turns on pg-boss (10.x: the newest release that runs on Node 20), shared by any
 * number of worker processes on any machines. The queue's policy is `singleton` and each job's
 * key is its conversation, so at most one turn per conversation runs at a time; a parked turn
 * resumes as a new job when its last decision arrives; a worker that dies mid-turn leaves its
 * job active until it expires, and pg-boss's retry takes the turn over from its journal
 * (`durable.continue(id, { takeOver: true })`).
 *
 * @example
 * ```ts
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * await boss.start();
 * const queue = await turnQueue(boss);
 * const durable = durableAgent(agent, { store, onReady: queue.enqueue });
 * await queue.work(durable, { concurrency: 8 });
 * await durable.submit({ message: 'tidy the repo', conversationId: 'c1' });
 * ```
 */
export async function turnQueue(boss: PgBoss, options: TurnQueueOptions = {}): Promise<TurnQueue> {
  const name = options.name ?? 'rtl-turns';
  const expireInSeconds = options.expireInSeconds ?? 900;
  const retryLimit = options.retryLimit ?? 5;
  await boss.createQueue(name, { name, policy: 'singleton', expireInSeconds, retryLimit, retryDelay: 0 });
  const workers: string[] = [];
  return {
    name,
    async enqueue(turn) {
      await boss.send(name, { turnId: turn.turnId }, { singletonKey: turn.conversationId ?? turn.turnId, expireInSeconds, retryLimit });
    },
    async work(durable, workOptions = {}) {
      const concurrency = workOptions.concurrency ?? 4;
      for (let i = 0; i < concurrency; i += 1) {
        const id = await boss.work<{ turnId: string }>(
          name,
          { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: workOptions.pollingIntervalSeconds ?? 0.5 },
          async ([job]) => {
            await lastValueFrom(durable.continue(job.data.turnId, { takeOver: job.retryCount > 0 }), { defaultValue: undefined });
          },
        );
        workers.push(id);
      }
    },
    async stop() {
      await Promise.all(workers.splice(0).map((id) => boss.offWork({ id } as never)));
    },
  };
}
