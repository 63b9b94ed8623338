import type { SqlDriver } from './sql-migrations.js';
import type { StoreChange } from './turn-store.js';

/** The watchers of one SQL store: `add` returns the unsubscribe; `close` stops everything. */
export interface ChangeWatcher {
  /** Starts after the newest change there is now: a listener added later sees every change from here on. */
  init(): Promise<void>;
  add(listener: (change: StoreChange) => void): () => void;
  close(): Promise<void>;
}

/**
 * Fans the store's `rtl_change` rows out to listeners, each row once, in order. It reads the rows
 * after the last one it saw whenever a NOTIFY arrives (where the driver can LISTEN) and on a
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
  let last = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let reading = false;
  let again = false;
  let closed = false;

  const read = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const rows = await driver.query<{ id: string; kind: StoreChange['kind']; turn_id: string }>(
          'SELECT id::text AS id, kind, turn_id FROM rtl_change WHERE id > $1 ORDER BY rtl_change.id LIMIT 1000',
          [last],
        );
        for (const row of rows) {
          last = Math.max(last, Number(row.id));
          const change: StoreChange = { kind: row.kind, turnId: row.turn_id };
          for (const listener of [...listeners]) listener(change);
        }
        if (rows.length === 1000) again = true;
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
      last = Number(rows[0]?.id ?? 0);
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
