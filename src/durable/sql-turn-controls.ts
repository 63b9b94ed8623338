import type { ColumnCipher } from './column-cipher.js';
import type { SqlDriver } from './sql-migrations.js';
import type { TurnStatus, TurnStore } from './turn-store.js';
import { CONTROL_CHANNEL, watchControls } from './watch-controls.js';

/** The part of the SQL store that keeps a running turn in touch with every instance. */
export type SqlTurnControls = Pick<TurnStore, 'renewLease' | 'expiredTurns' | 'control' | 'takeControls' | 'watchControls'> & { close(): Promise<void> };

interface ControlRow {
  id: string;
  kind: 'cancel' | 'steer';
  message: unknown;
  sent_by: string;
}

/**
 * Leases and controls on a Postgres database. A lease is `rtl_turn.lease_until`, renewed by a
 * single UPDATE fenced by `attempt` (no change row, no NOTIFY: nobody waits for it). A control is
 * an `rtl_control` row, inserted only for a turn that has not ended, in the statement that sends
 * `pg_notify('rtl_control', turn id)`; a steering message is taken once, by the first attempt
 * that reads it while it holds the turn, and encrypted like the turn's input when the store has a key.
 *
 * @example
 * ```ts
 * const controls = sqlTurnControls(driver, cipher, Date.now, 250);
 * await controls.control(turnId, { kind: 'cancel', by: 'alice' });
 * ```
 */
export function sqlTurnControls(driver: SqlDriver, cipher: ColumnCipher, now: () => number, pollMs: number): SqlTurnControls {
  const q = driver.query.bind(driver);
  const watcher = watchControls(driver, pollMs);
  return {
    async renewLease(turnId, attempt, leaseMs) {
      const rows = await q('UPDATE rtl_turn SET lease_until = $3 WHERE turn_id = $1 AND attempt = $2 RETURNING turn_id', [turnId, attempt, now() + leaseMs]);
      return rows.length > 0;
    },
    async expiredTurns(agent) {
      const rows = await q<{ turn_id: string }>(
        `SELECT turn_id FROM rtl_turn WHERE agent = $1 AND status = 'running' AND lease_until <= $2 ORDER BY lease_until, turn_id LIMIT 100`,
        [agent, now()],
      );
      return rows.map((r) => r.turn_id);
    },
    async control(turnId, control) {
      const message = control.kind === 'steer' ? JSON.stringify(cipher.seal(control.message, `steer:${turnId}`)) : null;
      const rows = await q<{ status: TurnStatus }>(
        `WITH t AS (SELECT turn_id, status FROM rtl_turn WHERE turn_id = $1 AND status IN ('queued', 'running', 'parked')),
              c AS (INSERT INTO rtl_control (turn_id, kind, message, sent_by, sent_at) SELECT turn_id, $2, $3::json, $4, $5 FROM t RETURNING turn_id)
         SELECT t.status, pg_notify('${CONTROL_CHANNEL}', t.turn_id) AS notified FROM t JOIN c USING (turn_id)`,
        [turnId, control.kind, message, control.by, now()],
      );
      return rows[0]?.status;
    },
    async takeControls(turnId, attempt) {
      const rows = await q<ControlRow>(
        `WITH mine AS (SELECT 1 FROM rtl_turn WHERE turn_id = $1 AND attempt = $2),
              s AS (UPDATE rtl_control SET taken = $2 WHERE turn_id = $1 AND kind = 'steer' AND taken IS NULL AND EXISTS (SELECT 1 FROM mine)
                    RETURNING id, kind, message, sent_by)
         SELECT id::text AS id, kind, message, sent_by FROM s
         UNION ALL
         (SELECT id::text AS id, kind, message, sent_by FROM rtl_control WHERE turn_id = $1 AND kind = 'cancel' AND EXISTS (SELECT 1 FROM mine) ORDER BY id LIMIT 1)`,
        [turnId, attempt],
      );
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      const cancel = rows.find((r) => r.kind === 'cancel');
      const steering = rows.filter((r) => r.kind === 'steer').map((r) => cipher.open<string>(r.message, `steer:${turnId}`));
      return cancel ? { cancelledBy: cancel.sent_by, steering } : { steering };
    },
    watchControls: (turnId, listener) => watcher.add(turnId, listener),
    close: () => watcher.close(),
  };
}
