import type { SqlDriver } from './sql-migrations.js';
import { FINISHED_STATUSES, type PruneOptions, type PruneResult } from './turn-store.js';

/** How long `rtl_change` rows stay: watchers read them within seconds (they wait 10 s for a gap at most). */
export const CHANGES_KEPT_MS = 3_600_000;

/**
 * One batch: up to $3 finished turns written before $2, locked (rows another prune holds are
 * skipped, so instances pruning at once split the work), deleted with their rows in every table
 * keyed by turn, in one statement.
 */
const TURN_BATCH = `
  WITH gone AS (SELECT turn_id FROM rtl_turn WHERE status = ANY($1::text[]) AND updated_at < $2 LIMIT $3 FOR UPDATE SKIP LOCKED),
    e AS (DELETE FROM rtl_event WHERE turn_id IN (SELECT turn_id FROM gone)),
    a AS (DELETE FROM rtl_audit WHERE turn_id IN (SELECT turn_id FROM gone)),
    d AS (DELETE FROM rtl_decision WHERE turn_id IN (SELECT turn_id FROM gone)),
    s AS (DELETE FROM rtl_snapshot_claim WHERE turn_id IN (SELECT turn_id FROM gone)),
    c AS (DELETE FROM rtl_control WHERE turn_id IN (SELECT turn_id FROM gone))
  DELETE FROM rtl_turn WHERE turn_id IN (SELECT turn_id FROM gone) RETURNING turn_id`;

/** The marks older than the change cutoff go; the highest change id they held is where deleting stops. */
const OLD_MARKS = `WITH old AS (DELETE FROM rtl_prune_mark WHERE at < $1 RETURNING change_id) SELECT max(change_id)::text AS upto FROM old`;
const CHANGE_BATCH = `WITH d AS (DELETE FROM rtl_change WHERE id IN (SELECT id FROM rtl_change WHERE id <= $1 ORDER BY id LIMIT $2) RETURNING 1) SELECT count(*)::int AS n FROM d`;

/**
 * `prune` of the SQL stores, at `now` by the store's clock: finished turns in batches until a
 * batch comes back short, then the `rtl_change` rows that were there at a prune more than
 * `CHANGES_KEPT_MS` ago (change rows hold no time; each prune marks the newest id), then a new mark.
 *
 * @example
 * ```ts
 * const { turns } = await sqlPrune(driver, Date.now(), { olderThanMs: 7 * 24 * 3_600_000 });
 * ```
 */
export async function sqlPrune(driver: SqlDriver, now: number, options: PruneOptions): Promise<PruneResult> {
  const batch = options.batchSize ?? 500;
  let turns = 0;
  for (;;) {
    const gone = await driver.query(TURN_BATCH, [[...FINISHED_STATUSES], now - options.olderThanMs, batch]);
    turns += gone.length;
    if (gone.length < batch) break;
  }
  const upto = (await driver.query<{ upto: string | null }>(OLD_MARKS, [now - CHANGES_KEPT_MS]))[0]?.upto ?? null;
  const changeBatch = batch * 10; // change rows are small
  while (upto !== null && Number((await driver.query<{ n: number }>(CHANGE_BATCH, [upto, changeBatch]))[0]?.n) === changeBatch);
  await driver.query('INSERT INTO rtl_prune_mark (at, change_id) SELECT $1, coalesce(max(id), 0) FROM rtl_change', [now]);
  return { turns };
}
