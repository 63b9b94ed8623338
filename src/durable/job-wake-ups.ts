import { createHash } from 'node:crypto';
import type { PgBossClient } from './pg-boss-client.js';
import type { SqlDriver } from './sql-migrations.js';

/**
 * Where a queue's wake-ups travel: `query` sends the NOTIFY, `listen` (where the driver has it)
 * receives it. `poolDriver(pool)` on PostgreSQL; PGlite behind a socket has no `listen`.
 */
export type WakeUps = Pick<SqlDriver, 'query' | 'listen'>;

/** The worker slots of one queue in this process, and how to wake them. */
export interface JobWakeUps {
  /** A slot is waiting for a job (between jobs, or before its first). */
  idle(workerId: string): void;
  /** A slot took a job. */
  busy(workerId: string): void;
  /** Makes the idle slot of this process that was woken or busy longest ago fetch now, so wake-ups in a row reach different slots. */
  wakeOne(): void;
  /** After a job was sent: wakes a slot here, and NOTIFYs every process that listens. Never rejects: a lost wake-up leaves the job to a poll. */
  sent(): Promise<void>;
  /** LISTENs for the other instances' wake-ups (once, where `wakeUps` can listen); true when it does. */
  listen(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * Wake-ups without polling for a queue's workers. pg-boss 10 finds jobs by polling, and its only
 * wake-up is in-process (`notifyWorker`); it has no LISTEN. So a job sent here wakes one idle slot
 * here, and a NOTIFY on the queue's own channel — sent after the job committed, so whoever wakes
 * finds it — wakes one idle slot in each process that LISTENs. A slot that finished a job fetches
 * again at once too (`busy`/`idle`). Polling stays the fallback: a NOTIFY lost (a reconnect, an
 * instance without `wakeUps`, a driver without `listen`) delays the job until the next poll, and
 * never loses it, since the job is in pg-boss's table.
 *
 * @example
 * ```ts
 * const wake = jobWakeUps(boss, 'rtl-turns', poolDriver(pool));
 * await wake.listen();
 * await boss.send('rtl-turns', { turnId });
 * await wake.sent();
 * ```
 */
export function jobWakeUps(boss: PgBossClient, queueName: string, wakeUps: WakeUps | undefined): JobWakeUps {
  const channel = wakeChannel(queueName);
  // the idle slots, the one woken or busy longest ago first: the last one may be fetching already
  const idle: string[] = [];
  let unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  const wakeOne = (): void => {
    const slot = idle.shift();
    if (slot === undefined) return; // every slot is in a job: each fetches again when it ends
    idle.push(slot);
    boss.notifyWorker(slot);
  };
  return {
    idle(workerId) {
      if (!idle.includes(workerId)) idle.push(workerId); // last: it fetches again as it ends its job
    },
    busy(workerId) {
      const at = idle.indexOf(workerId);
      if (at !== -1) idle.splice(at, 1);
    },
    wakeOne,
    async sent() {
      wakeOne();
      await wakeUps?.query('SELECT pg_notify($1, $2)', [channel, '']).catch(() => undefined);
    },
    async listen() {
      unlisten ??= wakeUps?.listen ? wakeUps.listen(channel, wakeOne) : Promise.resolve(undefined);
      return (await unlisten) !== undefined;
    },
    async stop() {
      const off = await unlisten?.catch(() => undefined);
      unlisten = undefined;
      idle.length = 0;
      await off?.();
    },
  };
}

/** The NOTIFY channel of a queue: an identifier PostgreSQL takes unquoted, the same for every instance. */
function wakeChannel(queueName: string): string {
  return `rtl_jobs_${createHash('sha256').update(queueName).digest('hex').slice(0, 24)}`;
}
