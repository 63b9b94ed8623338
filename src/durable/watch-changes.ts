import type { SqlDriver } from './sql-migrations.js';
import type { StoreChange } from './turn-store.js';

/** The watchers of one SQL store: `add` returns the unsubscribe; `close` stops everything. */
export interface ChangeWatcher {
  /** Starts after the newest change there is now: a listener added later sees every change from here on. */
  init(): Promise<void>;
  add(listener: (change: StoreChange) => void): () => void;
  close(): Promise<void>;
}

/** How long a gap in the change ids is waited for before it counts as a rolled-back insert. */
const GAP_MS = 10_000;

/**
 * Fans the store's `rtl_change` rows out to listeners, each row once (in id order, except a row
 * whose transaction committed late, which comes when it appears). It reads the rows after those
 * it saw whenever a NOTIFY arrives (where the driver can LISTEN) and on a
 * timer: every `pollMs` without LISTEN, every `10 × pollMs` with it (a notification lost across
 * a reconnect is picked up then). Nothing runs while nobody listens; the timer never keeps the
 * process alive.
 *
 * @example
 * ```ts
 * const watcher = watchChanges(driver, 'rtl_change', 250);
 * const stop = watcher.add((change) => console.log(change.kind, change.turnId));
 * ```
 */
export function watchChanges(driver: SqlDriver, channel: string, pollMs: number): ChangeWatcher {
  const listeners = new Set<(change: StoreChange) => void>();
  let started: Promise<void> | undefined;
  // Ids come from a sequence at insert time, but transactions commit in any order: a row with a
  // lower id can appear after a higher one was read. So `floor` only moves over ids delivered
  // without a gap below them; rows above it are remembered, and a gap below a row that arrived
  // GAP_MS ago is given up (a rolled-back insert never fills it).
  let floor = 0;
  const above = new Set<number>();
  const arrived = new Map<number, number>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let reading = false;
  let again = false;
  let closed = false;

  const advance = (): void => {
    for (;;) {
      const next = floor + 1;
      if (above.delete(next)) {
        floor = next;
        arrived.delete(next);
        continue;
      }
      if (above.size === 0) return;
      const lowest = Math.min(...above);
      if (Date.now() - arrived.get(lowest)! < GAP_MS) return;
      floor = lowest - 1; // the ids below it never came: rolled back
    }
  };

  const read = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      // each tick reads from the floor (a late commit below what was seen shows up there); a full
      // page goes on after its last row
      let from = floor;
      do {
        again = false;
        from = Math.max(from, floor); // what an earlier pass of this read delivered is not read again
        const rows = await driver.query<{ id: string; kind: StoreChange['kind']; turn_id: string }>(
          'SELECT id::text AS id, kind, turn_id FROM rtl_change WHERE id > $1 ORDER BY rtl_change.id LIMIT 1000',
          [from],
        );
        for (const row of rows) {
          const id = Number(row.id);
          // delivered already: at or below the floor (a read again from an older `from`), or above it
          if (id <= floor || above.has(id)) continue;
          above.add(id);
          arrived.set(id, Date.now());
          const change: StoreChange = { kind: row.kind, turnId: row.turn_id };
          for (const listener of [...listeners]) listener(change);
        }
        advance();
        if (rows.length === 1000) {
          from = Math.max(floor, Number(rows[rows.length - 1].id));
          again = true;
        }
      } while (again && !closed && listeners.size > 0);
    } catch {
      // a failed read is retried on the next notification or tick
    } finally {
      reading = false;
    }
  };
  const tick = (): void => void read();

  const start = async (): Promise<void> => {
    if (driver.listen) unlisten = await driver.listen(channel, tick);
    timer = setInterval(tick, unlisten ? pollMs * 10 : pollMs);
    tick(); // what changed while nobody listened
    timer.unref?.();
  };
  const stop = async (): Promise<void> => {
    const pending = started;
    started = undefined;
    await pending?.catch(() => undefined);
    if (timer) clearInterval(timer);
    timer = undefined;
    const off = unlisten;
    unlisten = undefined;
    await off?.().catch(() => undefined);
  };

  return {
    async init() {
      const rows = await driver.query<{ id: string | null }>('SELECT max(id)::text AS id FROM rtl_change');
      floor = Number(rows[0]?.id ?? 0);
    },
    add(listener) {
      listeners.add(listener);
      started ??= start();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) void stop();
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      await stop();
    },
  };
}
