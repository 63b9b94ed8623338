import type pg from 'pg';
import type { PgPoolClient } from '../../src/durable/index.js';

/**
 * Statements a process sent, by who sent them and what they did. A write is a statement that
 * inserts, updates or deletes (`INSERT INTO`, `UPDATE … SET`, `DELETE FROM`, alone or in a CTE)
 * and touched a row (pg's `rowCount` > 0): a pg-boss fetch that found no job and a claim that
 * lost are counted as `idle`, not as writes. `BEGIN`/`COMMIT` and `LISTEN` are not counted.
 */
export interface Counts {
  storeWrites: number;
  storeReads: number;
  queueWrites: number;
  queueReads: number;
  /** Writes that touched nothing: fetches that found no job, refused claims. */
  idle: number;
  notifies: number;
  /** Statements by verb and table ('UPDATE rtl_turn', 'SELECT rtl_decision', …), idle ones included. */
  byKind: Record<string, number>;
}

export const noCounts = (): Counts => ({ storeWrites: 0, storeReads: 0, queueWrites: 0, queueReads: 0, idle: 0, notifies: 0, byKind: {} });

const mergeKinds = (a: Record<string, number>, b: Record<string, number>, sign: 1 | -1): Record<string, number> => {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + sign * v;
  return out;
};

export const addCounts = (a: Counts, b: Counts): Counts => ({
  storeWrites: a.storeWrites + b.storeWrites,
  storeReads: a.storeReads + b.storeReads,
  queueWrites: a.queueWrites + b.queueWrites,
  queueReads: a.queueReads + b.queueReads,
  idle: a.idle + b.idle,
  notifies: a.notifies + b.notifies,
  byKind: mergeKinds(a.byKind, b.byKind, 1),
});

export const subCounts = (a: Counts, b: Counts): Counts => ({
  storeWrites: a.storeWrites - b.storeWrites,
  storeReads: a.storeReads - b.storeReads,
  queueWrites: a.queueWrites - b.queueWrites,
  queueReads: a.queueReads - b.queueReads,
  idle: a.idle - b.idle,
  notifies: a.notifies - b.notifies,
  byKind: mergeKinds(a.byKind, b.byKind, -1),
});

const WRITE = /\bINSERT\s+INTO\b|\bDELETE\s+FROM\b|\bUPDATE\s+[\w."]+(?:\s+(?:AS\s+)?\w+)?\s+SET\b/i;
const SKIPPED = /^\s*(?:BEGIN|COMMIT|ROLLBACK|LISTEN|UNLISTEN)\b/i;
const NOTIFY = /^\s*(?:SELECT\s+pg_notify|NOTIFY)\b/i;
const WRITE_TABLE = /\b(INSERT\s+INTO|DELETE\s+FROM|UPDATE)\s+([\w."]+)(?:\s+(?:AS\s+)?\w+)?\s+(?:SET\b|\(|VALUES\b|SELECT\b|WHERE\b)/i;
const READ_TABLE = /\bFROM\s+([\w."]+)/i;

/** 'UPDATE rtl_turn', 'SELECT rtl_decision', 'SELECT pg_advisory_xact_lock'. */
function kindOf(text: string, write: boolean): string {
  const w = write ? WRITE_TABLE.exec(text) : null;
  if (w) return `${w[1].split(/\s+/)[0].toUpperCase()} ${w[2]}`;
  const r = READ_TABLE.exec(text);
  return r ? `SELECT ${r[1]}` : text.trim().replace(/\s+/g, ' ').split('(')[0];
}

/** Counts one statement and its result into `counts` (`side`: the store's pool or pg-boss's). */
function count(counts: Counts, side: 'store' | 'queue', text: string, result: { rowCount?: number | null } | undefined): void {
  if (SKIPPED.test(text)) return;
  const write = WRITE.test(text);
  const kind = kindOf(text, write);
  counts.byKind[kind] = (counts.byKind[kind] ?? 0) + 1;
  if (NOTIFY.test(text)) counts.notifies += 1;
  else if (!write) counts[side === 'store' ? 'storeReads' : 'queueReads'] += 1;
  else if ((result?.rowCount ?? 0) > 0) counts[side === 'store' ? 'storeWrites' : 'queueWrites'] += 1;
  else counts.idle += 1;
}

type Query = (text: string, params?: readonly unknown[]) => Promise<pg.QueryResult>;

/** A `pg` pool as the store sees it (`PgPool`), counting each statement of its queries and of its checked-out clients. */
export function countingPool(pool: pg.Pool, counts: Counts) {
  const counted = (query: Query): Query => async (text, params) => {
    const result = await query(text, params);
    count(counts, 'store', text, result);
    return result;
  };
  return {
    query: counted((text, params) => pool.query(text, params as unknown[])),
    async connect(): Promise<PgPoolClient> {
      const client = await pool.connect();
      return {
        query: counted((text, params) => client.query(text, params as unknown[])),
        release: () => client.release(),
        on: ((event: 'error', listener: (error: Error) => void) => client.on(event, listener)) as PgPoolClient['on'],
        off: ((event: 'notification', listener: (message: pg.Notification) => void) => client.off(event, listener)) as PgPoolClient['off'],
      };
    },
  };
}

/** pg-boss's `db` option on a pool of our own, counting each statement. */
export function countingBossDb(pool: pg.Pool, counts: Counts) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const result = await pool.query(text, values);
      count(counts, 'queue', text, result);
      return result;
    },
  };
}
