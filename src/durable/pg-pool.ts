/** What `pg` returns for a query: the rows. */
export interface PgResult {
  readonly rows: unknown[];
}

/** A connection checked out of a `pg` pool, as `poolDriver` uses it (a `pg` `PoolClient`). */
export interface PgPoolClient {
  query(text: string, params?: readonly unknown[]): Promise<PgResult>;
  /** `true`: the connection is broken, close it instead of returning it to the pool. */
  release(destroy?: boolean): void;
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
}

/**
 * The part of a `pg` `Pool` that `postgresTurnStore` and `poolDriver` use, typed structurally:
 * pass a `new pg.Pool(…)`; the store's types never import `pg`, so apps that do not use
 * PostgreSQL type-check without `pg` and `@types/pg`.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool: PgPool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const store = await postgresTurnStore(pool);
 * ```
 */
export interface PgPool {
  query(text: string, params?: readonly unknown[]): Promise<PgResult>;
  connect(): Promise<PgPoolClient>;
}
