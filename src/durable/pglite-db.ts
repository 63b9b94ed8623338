/** A query on a PGlite or inside one of its transactions: the rows come back in `rows`. */
export interface PgliteQuery {
  query<R>(text: string, params?: readonly unknown[]): Promise<{ readonly rows: R[] }>;
}

/**
 * The part of an `@electric-sql/pglite` `PGlite` that `pgliteTurnStore` uses, typed
 * structurally: pass a `PGlite` of your own; the store's types never load PGlite's, so an app
 * that only passes `dataDir` type-checks without them.
 *
 * @example
 * ```ts
 * import { PGlite } from '@electric-sql/pglite';
 * const db: PgliteDb = await PGlite.create('./.turns');
 * const store = await pgliteTurnStore({ db });
 * ```
 */
export interface PgliteDb extends PgliteQuery {
  transaction<T>(work: (tx: PgliteQuery) => Promise<T>): Promise<T>;
  /** Resolves to the function that stops listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
