import type pg from 'pg';
import type { TurnWork, WorkerHooks } from './engine.js';

/**
 * Where the engines that keep no state of a turn themselves (pg-boss, graphile-worker) keep the
 * parked snapshot and the decision: one row a turn, written when it parks, when it is decided and
 * when it ends; the snapshot as JSON text (its keys may hold a NUL, which jsonb refuses). DBOS keeps the snapshot as its step's checkpoint and the decision as a message.
 */
export const BENCH_TURNS_DDL = `CREATE TABLE IF NOT EXISTS bench_turns (
  id text PRIMARY KEY, snapshot text NOT NULL, request_id text NOT NULL, decision text, status text NOT NULL)`;

type Query = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** The parked turn's row. */
export const saveParked = (query: Query, turnId: string, snapshot: unknown, requestId: string) =>
  query(`INSERT INTO bench_turns (id, snapshot, request_id, status) VALUES ($1, $2, $3, 'parked')`, [turnId, JSON.stringify(snapshot), requestId]);

/**
 * The decision, on a parked turn only (the first wins), and in the same transaction what
 * `enqueue` does on the same connection (the resume job).
 */
export async function saveDecision(pool: pg.Pool, turnId: string, decision: string, enqueue: (client: pg.PoolClient) => Promise<unknown>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`UPDATE bench_turns SET decision = $2, status = 'decided' WHERE id = $1 AND status = 'parked'`, [turnId, decision]);
    await enqueue(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The decided turn's snapshot and decision. */
export async function loadDecided(query: Query, turnId: string): Promise<{ snapshot: unknown; requestId: string; decision: 'yes' | 'no' }> {
  const { rows } = await query(`SELECT snapshot, request_id, decision FROM bench_turns WHERE id = $1 AND status = 'decided'`, [turnId]);
  if (rows.length === 0) throw new Error(`bench: turn ${turnId} is not decided`);
  return { snapshot: JSON.parse(String(rows[0].snapshot)), requestId: String(rows[0].request_id), decision: rows[0].decision === 'yes' ? 'yes' : 'no' };
}

/** The turn's end. */
export const saveEnded = (query: Query, turnId: string, status: string) => query(`UPDATE bench_turns SET status = $2 WHERE id = $1`, [turnId, status]);

/** `pool.query` as the helpers above take it. */
export const poolQuery =
  (pool: pg.Pool | pg.PoolClient): Query =>
  (text, values) =>
    pool.query(text, values);

/**
 * One job of a turn on an engine that keeps its state in `bench_turns`: 'start' runs the turn
 * until it parks and keeps the snapshot; 'resume' resumes the decided snapshot to its end. A
 * failure ends the turn 'failed' for the bench (which then does not wait for it).
 */
export async function runBenchJob(query: Query, work: TurnWork, hooks: WorkerHooks, turnId: string, step: string): Promise<void> {
  try {
    if (step === 'start') {
      const { snapshot, requestId } = await work.start(turnId);
      await saveParked(query, turnId, snapshot, requestId);
      hooks.parked(turnId, requestId);
      return;
    }
    const decided = await loadDecided(query, turnId);
    const status = await work.finish(turnId, decided.snapshot, decided.requestId, decided.decision, () => hooks.resumed(turnId));
    await saveEnded(query, turnId, status);
    hooks.ended(turnId, status);
  } catch (error) {
    console.error(`bench: turn ${turnId}: ${String(error)}`);
    hooks.ended(turnId, 'failed');
  }
}
