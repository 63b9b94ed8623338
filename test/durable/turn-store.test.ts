import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnEvent, TurnEventOf } from '../../src/index.js';
import { DurableStoreError, durableAgent, migrate, MIGRATIONS, openSqlTurnStore, pgliteTurnStore, poolDriver, type TurnStore } from '../../src/durable/index.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';
import { worldAgent } from './world.js';

type Done = TurnEventOf<'done'>;
const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const input = (turnId: string) => ({ message: 'hi', ingress: { channel: 'cli', turnId } });

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
}, 120_000);
afterAll(async () => db?.close(), 60_000);

describe('the SQL turn store on the test database', () => {
  it('the first decision wins atomically across instances; every loser sees the winner', async () => {
    const instances: TurnStore[] = await Promise.all([1, 2, 3].map(() => openSqlTurnStore(poolDriver(db.pool(4), db.driverOptions))));
    try {
      await instances[0].createTurn({ turnId: 'race', agent: 'a', input: input('race'), status: 'running' });
      const answers = ['yes', 'no', 'always'] as const;
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => instances[i % 3].decide({ turnId: 'race', requestId: 'r1', decision: answers[i % 3], decidedBy: `operator ${i}` })),
      );
      const winners = results.filter((r) => r.accepted);
      expect(winners).toHaveLength(1);
      const winner = winners[0].accepted ? winners[0].decision : undefined;
      for (const r of results) if (!r.accepted) expect(r.winner).toEqual(winner);
      expect(await instances[2].decisions('race')).toEqual([winner]);
    } finally {
      await Promise.all(instances.map((s) => s.close()));
    }
  });

  it('claims are atomic: of many instances claiming one turn, one gets it', async () => {
    const instances: TurnStore[] = await Promise.all([1, 2].map(() => openSqlTurnStore(poolDriver(db.pool(4), db.driverOptions))));
    try {
      await instances[0].createTurn({ turnId: 'claim', agent: 'a', input: input('claim'), status: 'queued' });
      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => instances[i % 2].claimTurn('claim', `w${i}`, ['queued'])));
      expect(claims.filter(Boolean)).toHaveLength(1);
      await expect(instances[1].createTurn({ turnId: 'claim', agent: 'a', input: input('claim'), status: 'queued' })).rejects.toBeInstanceOf(DurableStoreError);
    } finally {
      await Promise.all(instances.map((s) => s.close()));
    }
  });

  it('a claim alone is atomic per conversation: of two turns of one conversation claimed at once, one gets it', async () => {
    const instances: TurnStore[] = await Promise.all([1, 2].map(() => openSqlTurnStore(poolDriver(db.pool(4), db.driverOptions))));
    try {
      for (const turnId of ['alone-1', 'alone-2']) await instances[0].createTurn({ turnId, agent: 'a', conversationId: 'alone', input: input(turnId), status: 'queued' });
      await instances[0].createTurn({ turnId: 'alone-other', agent: 'a', conversationId: 'alone-other', input: input('alone-other'), status: 'queued' });
      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => instances[i % 2].claimTurn(i % 4 < 2 ? 'alone-1' : 'alone-2', `w${i}`, ['queued'], { alone: true })));
      const winners = claims.filter((c) => c !== undefined);
      expect(winners).toHaveLength(1);
      const loser = winners[0].turnId === 'alone-1' ? 'alone-2' : 'alone-1';
      expect(await instances[1].claimTurn(loser, 'w', ['queued'], { alone: true })).toBeUndefined();
      expect(await instances[1].claimTurn('alone-other', 'w', ['queued'], { alone: true })).toBeDefined(); // another conversation
      expect(await instances[0].updateTurn(winners[0].turnId, winners[0].attempt, { status: 'done' })).toBe(true);
      expect(await instances[1].claimTurn(loser, 'w', ['queued'], { alone: true })).toMatchObject({ status: 'running', owner: 'w' });
    } finally {
      await Promise.all(instances.map((s) => s.close()));
    }
  });

  it('migrates once, records its version, and fails closed on a schema from a newer release', async () => {
    const driver = poolDriver(db.pool(2), db.driverOptions);
    const store = await openSqlTurnStore(driver);
    expect(await migrate(driver)).toBe(0);
    const rows = await driver.query<{ version: number }>('SELECT version FROM rtl_migration ORDER BY version');
    expect(rows.map((r) => Number(r.version))).toEqual(MIGRATIONS.map((m) => m.version));
    await driver.query('INSERT INTO rtl_migration (version, applied_at) VALUES (999, 0)');
    try {
      await expect(openSqlTurnStore(driver)).rejects.toThrow(/version 999/);
    } finally {
      await driver.query('DELETE FROM rtl_migration WHERE version = 999');
      await store.close();
    }
  });

  it('a snapshot reads back byte for byte (json, not jsonb)', async () => {
    const store = await openSqlTurnStore(poolDriver(db.pool(2), db.driverOptions));
    try {
      const durable = durableAgent(worldAgent(), { store });
      const done = (await collect(durable.run({ message: 'note bytes', conversationId: 'bytes' }))).pop() as Done;
      const stored = await store.getTurn(done.snapshot!.turnId);
      expect(JSON.stringify(stored!.snapshot)).toBe(JSON.stringify(done.snapshot));
    } finally {
      await store.close();
    }
  });
});

describe('pgliteTurnStore({ dataDir })', () => {
  it('survives a restart: a turn parked before the store closed resumes after it reopens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rtl-pglite-'));
    try {
      const before = await pgliteTurnStore({ dataDir });
      const parked = (await collect(durableAgent(worldAgent(), { store: before }).run({ message: 'note restart', conversationId: 'restart' }))).pop() as Done;
      expect(parked.reason).toBe('paused');
      await before.close();
      const after = await pgliteTurnStore({ dataDir });
      try {
        const durable = durableAgent(worldAgent(), { store: after });
        const turnId = parked.snapshot!.turnId;
        expect((await after.getTurn(turnId))?.status).toBe('parked');
        await durable.decide(turnId, parked.pending![0].requestId, 'yes', 'alice');
        const done = (await collect(durable.continue(turnId))).pop() as Done;
        expect(done).toMatchObject({ reason: 'final', text: 'noted' });
        expect(await after.history('restart')).toEqual(done.history);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('migrations, version by version', () => {
  it('a database at version 1 is brought to the newest, keeping its rows', async () => {
    // on the file's test database, in a schema of its own (no PGlite started for one test);
    // one connection, so the schema set here is the one every query of the store uses
    const pool = db.pool(1);
    const schema = `migration_${Math.random().toString(36).slice(2, 10)}`;
    await pool.query(`CREATE SCHEMA ${schema}`);
    await pool.query(`SET search_path TO ${schema}`);
    try {
      await pool.query('CREATE TABLE rtl_migration (version integer PRIMARY KEY, applied_at bigint NOT NULL)');
      for (const statement of MIGRATIONS[0].statements) await pool.query(statement);
      await pool.query('INSERT INTO rtl_migration (version, applied_at) VALUES (1, 0)');
      await pool.query("INSERT INTO rtl_allow (conversation_id, tool_name) VALUES ('c', 'deploy')");
      await pool.query(`INSERT INTO rtl_turn (turn_id, agent, status, input, pending, attempt, updated_at) VALUES ('old-running', 'a', 'running', '{}', '[]', 1, 1000)`);
      const store = await openSqlTurnStore(poolDriver(pool, { ...db.driverOptions, listen: false }));
      expect(await store.allowList('c')).toEqual(['deploy']);
      await store.activate('c', ['remote_ping']);
      expect(await store.activations('c')).toEqual(['remote_ping']);
      // a turn running before leases existed gets the old default expiry (900 s after its last write)
      const old = await pool.query<{ lease_until: string }>(`SELECT lease_until::text FROM rtl_turn WHERE turn_id = 'old-running'`);
      expect(old.rows[0].lease_until).toBe('901000');
      const versions = await pool.query<{ version: number }>('SELECT version FROM rtl_migration ORDER BY version');
      expect(versions.rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      await store.close();
    } finally {
      // PGlite behind a socket has one session for every connection: leave it as it was
      await pool.query(`SET search_path TO public; DROP SCHEMA ${schema} CASCADE`);
    }
  }, 60_000);
});
