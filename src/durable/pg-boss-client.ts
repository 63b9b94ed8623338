/** A job as a pg-boss worker gets it with `includeMetadata: true`. */
export interface PgBossJob<T> {
  readonly id: string;
  readonly data: T;
  readonly retryCount: number;
}

/**
 * The part of a `PgBoss` (pg-boss 10) that `turnQueue` uses, typed structurally: pass a started
 * `new PgBoss(…)`; the queue's types never import pg-boss, so apps without workers type-check
 * without it.
 *
 * @example
 * ```ts
 * import PgBoss from 'pg-boss';
 * const boss: PgBossClient = new PgBoss(process.env.DATABASE_URL!);
 * const queue = await turnQueue(boss);
 * ```
 */
export interface PgBossClient {
  createQueue(
    name: string,
    options: { name: string; policy: 'standard'; expireInSeconds: number; retryLimit: number; retryDelay: number },
  ): Promise<unknown>;
  updateQueue(name: string, options: { name: string; policy: 'standard' }): Promise<unknown>;
  send(name: string, data: object, options: { expireInSeconds: number; retryLimit: number; startAfter?: number }): Promise<unknown>;
  work<T>(
    name: string,
    options: { batchSize: number; includeMetadata: true; pollingIntervalSeconds: number },
    handler: (jobs: PgBossJob<T>[]) => Promise<unknown>,
  ): Promise<string>;
  offWork(options: { id: string }): Promise<unknown>;
  /** Makes a worker of this process fetch now instead of at its next poll. */
  notifyWorker(workerId: string): void;
}
