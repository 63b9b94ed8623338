import { checkedStore } from './checked-store.js';
import { columnCipher } from './column-cipher.js';
import { DurableStoreError } from './durable-errors.js';
import { migrate, type SqlDriver } from './sql-migrations.js';
import { sqlConversationState } from './sql-conversation-state.js';
import { holding } from './sql-fence.js';
import { sqlTurnControls } from './sql-turn-controls.js';
import { turnOf, type TurnRow } from './sql-turn-row.js';
import { sqlPrune } from './sql-prune.js';
import { watchChanges, type ChangeWatcher } from './watch-changes.js';
import type { AuditRecord, StoredDecision, StoredTurn, TurnStore } from './turn-store.js';

const CHANNEL = 'rtl_change';
/** The first key of a conversation's advisory lock (the second: the hash of its id) while a claim `alone` checks it. */
const CONVERSATION_LOCK = 732_011_421;

/** Options of the SQL stores. */
export interface SqlStoreOptions {
  /** How often watchers poll for changes where no notification arrives (ms). Default 250. */
  readonly pollMs?: number;
  readonly now?: () => number;
  /**
   * Encrypts what the rows hold of conversations (a turn's input, snapshot and outcome, the
   * conversation history, the event log) with AES-256-GCM under this key (`columnCipher`); a
   * string or bytes of at least 16 bytes. Ids, statuses, decisions, the audit log and
   * allow-lists stay readable. Every instance on the database needs the same key.
   */
  readonly encryptionKey?: string | Uint8Array;
}

interface DecisionRow {
  turn_id: string;
  request_id: string;
  decision: StoredDecision['decision'];
  decided_by: string;
  decided_at: string | number;
}

const toDecision = (r: DecisionRow): StoredDecision => ({
  turnId: r.turn_id,
  requestId: r.request_id,
  decision: r.decision,
  decidedBy: r.decided_by,
  decidedAt: Number(r.decided_at),
});

/** Writes a change row and notifies, in the statement that made the change (a CTE named `w`). */
const noting = (kind: string, cte: string, select = 'w.*'): string =>
  `WITH w AS (${cte}), c AS (INSERT INTO rtl_change (kind, turn_id) SELECT DISTINCT '${kind}', turn_id FROM w)
   SELECT ${select}, pg_notify('${CHANNEL}', '') AS notified FROM w`;

const json = (value: unknown): string => JSON.stringify(value);

/**
 * Opens the turn store on a Postgres database: migrates the schema, then starts its watchers
 * after the newest change there is.
 *
 * @example
 * ```ts
 * const store = await openSqlTurnStore(poolDriver(pool), { pollMs: 100 });
 * ```
 */
export async function openSqlTurnStore(driver: SqlDriver, options: SqlStoreOptions = {}): Promise<TurnStore> {
  await migrate(driver);
  const watcher = watchChanges(driver, CHANNEL, options.pollMs ?? 250);
  await watcher.init();
  return sqlTurnStore(driver, watcher, options);
}

/**
 * The turn store on a Postgres database (PostgreSQL through `pg`, or PGlite): the schema of
 * `MIGRATIONS`; decisions win first by the primary key (INSERT … ON CONFLICT DO NOTHING); claims
 * and fenced updates are single conditional UPDATEs (a claim `alone` takes the conversation's
 * advisory lock, then checks and claims in one UPDATE, in one transaction); every change writes
 * an `rtl_change` row and a NOTIFY, and watchers read the rows after the last they saw — woken by
 * LISTEN where the driver has it, else by polling.
 *
 */
function sqlTurnStore(driver: SqlDriver, watcher: ChangeWatcher, options: SqlStoreOptions): TurnStore {
  const now = options.now ?? Date.now;
  const q = driver.query.bind(driver);
  const cipher = columnCipher(options.encryptionKey);
  const toTurn = (r: TurnRow): StoredTurn => turnOf(r, cipher);
  /** A column's JSON as stored: encrypted (with its column and owner as context) when the store has a key. */
  const sealed = (value: unknown, context: string): string => json(value === null ? null : cipher.seal(value, context));
  const controls = sqlTurnControls(driver, cipher, now, options.pollMs ?? 250);
  return checkedStore({
    backend: driver.backend,
    ...controls,
    ...sqlConversationState(driver, cipher, now),
    async createTurn({ turnId, agent, conversationId, input, status, owner, leaseMs }) {
      const at = now();
      const rows = await q<TurnRow>(
        noting(
          'turn',
          `INSERT INTO rtl_turn (turn_id, agent, conversation_id, status, input, snapshot, pending, outcome, attempt, owner, updated_at, lease_until)
           VALUES ($1, $2, $3, $4, $5, NULL, '[]', NULL, 1, $6, $7, $8) ON CONFLICT (turn_id) DO NOTHING RETURNING *`,
        ),
        [turnId, agent, conversationId ?? null, status, sealed(input, `input:${turnId}`), owner ?? null, at, status === 'running' && leaseMs !== undefined ? at + leaseMs : null],
      );
      if (rows.length === 0) throw new DurableStoreError(`A turn with id '${turnId}' exists already.`);
      return toTurn(rows[0]);
    },
    async getTurn(turnId) {
      const rows = await q<TurnRow>('SELECT * FROM rtl_turn WHERE turn_id = $1', [turnId]);
      return rows[0] && toTurn(rows[0]);
    },
    async listTurns(filter = {}) {
      const rows = await q<TurnRow>(
        'SELECT * FROM rtl_turn WHERE ($1::text[] IS NULL OR status = ANY($1::text[])) AND ($2::text IS NULL OR conversation_id = $2) ORDER BY updated_at, turn_id',
        [filter.status === undefined ? null : [filter.status].flat(), filter.conversationId ?? null],
      );
      return rows.map(toTurn);
    },
    async claimTurn(turnId, owner, from, options = {}) {
      /** The claim; with `conversationId`, only while no other turn of that conversation runs, nor (`inOrder`) is queued before a queued one (checked in the same statement). */
      const claim = async (query: SqlDriver['query'], conversationId: string | null = null): Promise<StoredTurn | undefined> => {
        const at = now();
        // with `expired`, a running turn only once its lease ran out (none: never)
        const rows = await query<TurnRow>(
          noting(
            'turn',
            `UPDATE rtl_turn SET status = 'running', attempt = attempt + 1, owner = $2, updated_at = $4, lease_until = $5::bigint
             WHERE turn_id = $1 AND status = ANY($3::text[]) AND (NOT $6::boolean OR status <> 'running' OR lease_until <= $4)
               AND ($7::text IS NULL OR NOT EXISTS (
                 SELECT 1 FROM rtl_turn o WHERE o.conversation_id = $7 AND o.turn_id <> $1 AND (o.status = 'running'
                   OR ($8::boolean AND rtl_turn.status = 'queued' AND o.status = 'queued'
                       AND (o.updated_at < rtl_turn.updated_at OR (o.updated_at = rtl_turn.updated_at AND o.turn_id COLLATE "C" < rtl_turn.turn_id COLLATE "C")))))) RETURNING *`,
          ),
          [turnId, owner, [...from], at, options.leaseMs === undefined ? null : at + options.leaseMs, options.expired === true, conversationId, options.inOrder === true],
        );
        return rows[0] && toTurn(rows[0]);
      };
      if (!options.alone) return claim(q);
      // the conversation's lock, taken in the statement that finds the conversation; the claim's
      // statement starts after it, so its check reads what the previous holder committed
      return driver.transaction(async (query) => {
        const found = await query<{ conversation_id: string | null }>('SELECT conversation_id, pg_advisory_xact_lock($2, hashtext(conversation_id)) FROM rtl_turn WHERE turn_id = $1', [
          turnId,
          CONVERSATION_LOCK,
        ]);
        return found.length === 0 ? undefined : claim(query, found[0].conversation_id);
      });
    },
    async updateTurn(turnId, attempt, patch, events = []) {
      const has = (key: keyof typeof patch): boolean => Object.hasOwn(patch, key);
      const update = `UPDATE rtl_turn SET
             status = CASE WHEN $3 THEN $4 ELSE status END,
             snapshot = CASE WHEN $5 THEN $6::json ELSE snapshot END,
             pending = CASE WHEN $7 THEN $8::json ELSE pending END,
             outcome = CASE WHEN $9 THEN $10::json ELSE outcome END,
             updated_at = $11
           WHERE turn_id = $1 AND attempt = $2 RETURNING turn_id`;
      const params = [turnId, attempt, has('status'), patch.status ?? null, has('snapshot'), sealed(patch.snapshot ?? null, `snapshot:${turnId}`), has('pending'), json(patch.pending ?? []), has('outcome'), sealed(patch.outcome ?? null, `outcome:${turnId}`), now()];
      if (events.length === 0) return (await q(noting('turn', update, 'w.turn_id'), params)).length > 0;
      // the events only with the row's change (the UPDATE holds the row: no claim passes in between), each with its change row
      const rows = await q(
        `WITH w AS (${update}),
              e AS (INSERT INTO rtl_event (turn_id, event) SELECT w.turn_id, x.e FROM w, json_array_elements($12::json) WITH ORDINALITY AS x(e, n) ORDER BY x.n RETURNING turn_id),
              c AS (INSERT INTO rtl_change (kind, turn_id) SELECT 'turn', turn_id FROM w UNION ALL SELECT DISTINCT 'event', turn_id FROM e)
         SELECT w.turn_id, pg_notify('${CHANNEL}', '') AS notified FROM w`,
        [...params, json(events.map((e) => cipher.seal(e, `event:${turnId}`)))],
      );
      return rows.length > 0;
    },
    async decide({ turnId, requestId, decision, decidedBy }) {
      const rows = await q<DecisionRow>(
        noting('decision', `INSERT INTO rtl_decision (turn_id, request_id, decision, decided_by, decided_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING *`),
        [turnId, requestId, json(decision), decidedBy, now()],
      );
      if (rows.length > 0) return { accepted: true, decision: toDecision(rows[0]) };
      const winner = await q<DecisionRow>('SELECT * FROM rtl_decision WHERE turn_id = $1 AND request_id = $2', [turnId, requestId]);
      return { accepted: false, winner: toDecision(winner[0]) };
    },
    async claimSnapshot(turnId, sequence) {
      const rows = await q('INSERT INTO rtl_snapshot_claim (turn_id, sequence, claimed_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING turn_id', [turnId, sequence, now()]);
      return rows.length > 0;
    },
    async decisions(turnId) {
      return (await q<DecisionRow>('SELECT * FROM rtl_decision WHERE turn_id = $1 ORDER BY decided_at, request_id', [turnId])).map(toDecision);
    },
    async appendAudit(record, attempt) {
      const rows = await q(`INSERT INTO rtl_audit (turn_id, conversation_id, record) SELECT $1, $2, $3 WHERE ${holding('$1', 4)} RETURNING id`, [
        record.turnId,
        record.conversationId,
        json(record),
        attempt ?? null,
      ]);
      return rows.length > 0;
    },
    async auditLog(filter = {}) {
      const rows = await q<{ record: AuditRecord }>(
        'SELECT record FROM rtl_audit WHERE ($1::text IS NULL OR turn_id = $1) AND ($2::text IS NULL OR conversation_id = $2) ORDER BY id',
        [filter.turnId ?? null, filter.conversationId ?? null],
      );
      return rows.map((r) => r.record);
    },
    async appendEvents(turnId, events, attempt) {
      if (events.length === 0) return true;
      const rows = await q(
        noting('event', `INSERT INTO rtl_event (turn_id, event) SELECT $1, e FROM json_array_elements($2::json) WITH ORDINALITY AS t(e, n) WHERE ${holding('$1', 3)} ORDER BY n RETURNING turn_id`, 'w.turn_id'),
        [turnId, json(events.map((e) => cipher.seal(e, `event:${turnId}`))), attempt ?? null],
      );
      return rows.length > 0;
    },
    async events(turnId, afterSeq = 0) {
      const rows = await q<{ seq: string; event: never }>('SELECT seq::text AS seq, event FROM rtl_event WHERE turn_id = $1 AND seq > $2 ORDER BY rtl_event.seq', [turnId, afterSeq]);
      return rows.map((r) => ({ seq: Number(r.seq), turnId, event: cipher.open(r.event, `event:${turnId}`) }));
    },
    prune: (pruning) => sqlPrune(driver, now(), pruning),
    watch: (listener) => watcher.add(listener),
    async close() {
      await Promise.all([watcher.close(), controls.close()]);
      await driver.close();
    },
  });
}
