import type { SqlDriver } from './sql-migrations.js';

/** The channel a control's NOTIFY goes to, with the turn id as its payload. */
export const CONTROL_CHANNEL = 'rtl_control';

/** Who watches which turn's controls in one SQL store: `add` returns the unsubscribe; `close` stops everything. */
export interface ControlWatcher {
  add(turnId: string, listener: () => void): () => void;
  close(): Promise<void>;
}

/**
 * Tells the watchers of a turn that a control (a cancel, a steering message) was recorded for it
 * on some instance: at once on the NOTIFY whose payload is the turn id (where the driver can
 * LISTEN), and on a timer that reads the newest control id of each watched turn (every `pollMs`
 * without LISTEN, every `10 × pollMs` with it, for a notification lost across a reconnect). The
 * LISTEN starts with the first watcher and stays until `close`; the timer runs only while
 * someone watches and never keeps the process alive.
 *
 * @example
 * ```ts
 * const controls = watchControls(driver, 250);
 * const stop = controls.add(turnId, () => void store.takeControls(turnId, attempt).then(act));
 * ```
 */
export function watchControls(driver: SqlDriver, pollMs: number): ControlWatcher {
  const listeners = new Map<string, Set<() => void>>();
  const told = new Map<string, number>(); // the newest control id each watched turn was told of by a poll
  let listening: Promise<(() => Promise<void>) | undefined> | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let polling = false;

  const tell = (turnId: string): void => {
    for (const listener of [...(listeners.get(turnId) ?? [])]) listener();
  };
  const poll = async (): Promise<void> => {
    if (polling || listeners.size === 0) return;
    polling = true;
    try {
      const rows = await driver.query<{ turn_id: string; id: string }>(
        'SELECT turn_id, max(id)::text AS id FROM rtl_control WHERE turn_id = ANY($1::text[]) GROUP BY turn_id',
        [[...listeners.keys()]],
      );
      for (const row of rows) {
        if (Number(row.id) <= (told.get(row.turn_id) ?? 0)) continue;
        told.set(row.turn_id, Number(row.id));
        tell(row.turn_id);
      }
    } catch {
      // a failed poll is retried on the next tick
    } finally {
      polling = false;
    }
  };
  const start = (): void => {
    listening ??= driver.listen ? driver.listen(CONTROL_CHANNEL, tell).catch(() => undefined) : Promise.resolve(undefined);
    void listening.then((off) => {
      if (timer !== undefined || listeners.size === 0) return;
      timer = setInterval(() => void poll(), off ? pollMs * 10 : pollMs);
      timer.unref?.();
    });
  };
  const stopTimer = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  return {
    add(turnId, listener) {
      let set = listeners.get(turnId);
      if (!set) listeners.set(turnId, (set = new Set()));
      const own = (): void => listener(); // each watch its own entry, even for the same function
      set.add(own);
      start();
      return () => {
        set.delete(own);
        if (set.size > 0 || listeners.get(turnId) !== set) return;
        listeners.delete(turnId);
        told.delete(turnId);
        if (listeners.size === 0) stopTimer();
      };
    },
    async close() {
      listeners.clear();
      stopTimer();
      const off = await listening;
      listening = undefined;
      await off?.().catch(() => undefined);
    },
  };
}
