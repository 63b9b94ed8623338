import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openSqlTurnStore, poolDriver, type SqlDriver, type StoreChange } from '../../src/durable/index.js';
import { watchChanges } from '../../src/durable/watch-changes.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
}, 120_000);
afterAll(async () => db?.close(), 60_000);

describe('watching a SQL store', () => {
  it('a notification that arrives while a read is in flight reads on from there: no change is delivered twice', async () => {
    const real = poolDriver(db.pool(2), db.driverOptions);
    await migrate(real);
    let wake: () => void = () => undefined; // the watcher's own wake-up, as a NOTIFY calls it
    let hold: Promise<void> | undefined; // holds the watcher's next read of rtl_change after its rows came
    let reading!: () => void;
    const driver: SqlDriver = {
      ...real,
      query: async <R>(text: string, params?: readonly unknown[]) => {
        const rows = await real.query<R>(text, params);
        if (hold && text.includes('FROM rtl_change WHERE id >')) {
          const held = hold;
          hold = undefined;
          reading();
          await held;
        }
        return rows;
      },
      listen: async (_channel, onNotify) => ((wake = () => onNotify('')), async () => undefined),
    };
    const watcher = watchChanges(driver, 'rtl_change', 60_000);
    await watcher.init();
    const seen: string[] = [];
    let arrived = (): void => undefined;
    const stop = watcher.add((change) => (seen.push(change.turnId), arrived()));
    try {
      const [{ id }] = await real.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM rtl_change');
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      const inFlight = new Promise<void>((resolve) => (reading = resolve));
      await real.query("INSERT INTO rtl_change (id, kind, turn_id) VALUES ($1, 'turn', 'once')", [Number(id) + 1]);
      wake(); // the read starts, gets the row, and waits
      await inFlight;
      wake(); // a second notification while it reads: the read goes on once more
      const delivered = new Promise<void>((resolve) => (arrived = resolve));
      release();
      await delivered;
      await real.query("INSERT INTO rtl_change (id, kind, turn_id) VALUES ($1, 'turn', 'next')", [Number(id) + 2]);
      const next = new Promise<void>((resolve) => (arrived = resolve));
      wake();
      await next;
      expect(seen).toEqual(['once', 'next']);
    } finally {
      stop();
      await watcher.close();
    }
  });

  it('a change whose transaction committed after a later one is still delivered', async () => {
    const driver = poolDriver(db.pool(2), db.driverOptions);
    const store = await openSqlTurnStore(driver, { pollMs: 20 });
    try {
      const seen: StoreChange[] = [];
      let notify = (): void => undefined;
      const stop = store.watch((change) => (seen.push(change), notify()));
      const until = (n: number) => new Promise<void>((resolve) => ((notify = () => seen.length >= n && resolve()), notify()));
      const [{ id }] = await driver.query<{ id: string | null }>('SELECT coalesce(max(id), 0)::text AS id FROM rtl_change');
      const base = Number(id);
      // ids come from the sequence in insert order, but commits can come in any order: write the later one first
      await driver.query("INSERT INTO rtl_change (id, kind, turn_id) VALUES ($1, 'turn', 'later')", [base + 2]);
      await until(1);
      await driver.query("INSERT INTO rtl_change (id, kind, turn_id) VALUES ($1, 'turn', 'earlier')", [base + 1]);
      await driver.query("SELECT pg_notify('rtl_change', '')");
      await until(2);
      await driver.query("INSERT INTO rtl_change (id, kind, turn_id) VALUES ($1, 'decision', 'next')", [base + 3]);
      await until(3);
      stop();
      expect(seen.map((c) => c.turnId)).toEqual(['later', 'earlier', 'next']); // each once
    } finally {
      await store.close();
    }
  });
});
