import { DurableStoreError } from './durable-errors.js';

/** How the SQL stores reach a database: PostgreSQL through `pg`, or PGlite. */
export interface SqlDriver {
  readonly backend: 'pglite' | 'postgres';
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs `work` in one transaction on one connection. */
  transaction<T>(work: (query: SqlDriver['query']) => Promise<T>): Promise<T>;
  /** Calls `onNotify` with the payload of each NOTIFY on `channel`; absent where notifications do not arrive (poll there). */
  listen?(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * The schema of both Postgres stores, one entry per version, applied in order and recorded in
 * `rtl_migration`. JSON columns are `json` (kept as written), not `jsonb`, so a snapshot reads
 * back byte for byte. Append new versions; never edit one that shipped.
 */
export const MIGRATIONS: readonly { readonly version: number; readonly statements: readonly string[] }[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE rtl_turn (
         turn_id text PRIMARY KEY, agent text NOT NULL, conversation_id text, status text NOT NULL,
         input json NOT NULL, snapshot json, pending json NOT NULL, outcome json,
         attempt integer NOT NULL, owner text, updated_at bigint NOT NULL)`,
      `CREATE INDEX rtl_turn_status ON rtl_turn (status)`,
      `CREATE INDEX rtl_turn_conversation ON rtl_turn (conversation_id)`,
      `CREATE TABLE rtl_decision (
         turn_id text NOT NULL, request_id text NOT NULL, decision json NOT NULL, decided_by text NOT NULL,
         decided_at bigint NOT NULL, PRIMARY KEY (turn_id, request_id))`,
      `CREATE TABLE rtl_audit (id bigserial PRIMARY KEY, turn_id text NOT NULL, conversation_id text, record json NOT NULL)`,
      `CREATE INDEX rtl_audit_turn ON rtl_audit (turn_id)`,
      `CREATE TABLE rtl_allow (conversation_id text NOT NULL, tool_name text NOT NULL, PRIMARY KEY (conversation_id, tool_name))`,
      `CREATE TABLE rtl_history (conversation_id text PRIMARY KEY, history json NOT NULL, updated_at bigint NOT NULL)`,
      `CREATE TABLE rtl_event (seq bigserial PRIMARY KEY, turn_id text NOT NULL, event json NOT NULL)`,
      `CREATE INDEX rtl_event_turn ON rtl_event (turn_id, seq)`,
      `CREATE TABLE rtl_change (id bigserial PRIMARY KEY, kind text NOT NULL, turn_id text NOT NULL)`,
    ],
  },
  {
    // the deferred tools each conversation activated (tool_search), for its turns on any instance
    version: 2,
    statements: [`CREATE TABLE rtl_activation (conversation_id text NOT NULL, tool_name text NOT NULL, PRIMARY KEY (conversation_id, tool_name))`],
  },
  {
    // one claim per parked snapshot resumed (turn id, seal sequence): a replayed snapshot is refused
    version: 3,
    statements: [`CREATE TABLE rtl_snapshot_claim (turn_id text NOT NULL, sequence integer NOT NULL, claimed_at bigint NOT NULL, PRIMARY KEY (turn_id, sequence))`],
  },
  {
    // leases renewed by a live worker (a running turn is taken over only once its lease ran out),
    // and the controls sent to a turn from any instance (cancel, steering); a turn running before
    // this version gets the lease pg-boss's default expiry gave it
    version: 4,
    statements: [
      `ALTER TABLE rtl_turn ADD COLUMN lease_until bigint`,
      `UPDATE rtl_turn SET lease_until = updated_at + 900000 WHERE status = 'running'`,
      `CREATE INDEX rtl_turn_lease ON rtl_turn (agent, lease_until) WHERE status = 'running'`,
      `CREATE TABLE rtl_control (
         id bigserial PRIMARY KEY, turn_id text NOT NULL, kind text NOT NULL, message json,
         sent_by text NOT NULL, sent_at bigint NOT NULL, taken integer)`,
      `CREATE INDEX rtl_control_turn ON rtl_control (turn_id, id)`,
    ],
  },
  {
    // the newest rtl_change id at each prune: a prune an hour later deletes the change rows up to it
    version: 5,
    statements: [`CREATE TABLE rtl_prune_mark (id bigserial PRIMARY KEY, at bigint NOT NULL, change_id bigint NOT NULL)`],
  },
];

/** An arbitrary, fixed key: instances that start together migrate one after the other. */
const MIGRATION_LOCK = 7_320_114_201;

/**
 * Brings the schema to the newest version, in one transaction under an advisory lock; a database
 * migrated by a newer release fails closed.
 *
 * @example
 * ```ts
 * await migrate(driver); // 1 on a new database, then 0
 * ```
 * @return How many versions it applied.
 */
export async function migrate(driver: SqlDriver): Promise<number> {
  return driver.transaction(async (query) => {
    await query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await query('CREATE TABLE IF NOT EXISTS rtl_migration (version integer PRIMARY KEY, applied_at bigint NOT NULL)');
    const rows = await query<{ version: number }>('SELECT max(version) AS version FROM rtl_migration');
    const current = Number(rows[0]?.version ?? 0);
    const newest = MIGRATIONS[MIGRATIONS.length - 1].version;
    if (current > newest) {
      throw new DurableStoreError(`The turn store's schema is at version ${current}; this release knows up to ${newest}.`);
    }
    let applied = 0;
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements) await query(statement);
      await query('INSERT INTO rtl_migration (version, applied_at) VALUES ($1, $2)', [migration.version, Date.now()]);
      applied += 1;
    }
    return applied;
  });
}
