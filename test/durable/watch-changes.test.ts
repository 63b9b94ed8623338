import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlTurnStore, poolDriver, type StoreChange } from '../../src/durable/index.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
}, 120_000);
afterAll(async () => db?.close(), 60_000);

describe('watching a SQL store', () => {
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
