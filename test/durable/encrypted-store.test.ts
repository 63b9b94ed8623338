import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { DurableStoreError, durableAgent, openSqlTurnStore, poolDriver, type SqlDriver, type TurnStore } from '../../src/durable/index.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';
import { worldAgent } from './world.js';
import { leaksOf } from '../fixtures/leak-search.js';

/**
 * `encryptionKey` on the SQL stores: what the rows hold of a conversation (input, snapshot,
 * outcome, history, events) is AES-256-GCM ciphertext in PostgreSQL; an instance with the same
 * key reads and resumes it; without the key, with another key, or with a row moved onto another
 * turn, nothing of it is used (DurableStoreError).
 */

type Done = TurnEventOf<'done'>;
const collect = (events$: Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const KEY = 'a deployment key of at least 16 bytes';
/** What the conversation says, and must not be readable in the database. */
const SECRETS = ['note for the encrypted store', 'value of a', 'value of b', 'wrote hello', 'noted'];

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
}, 120_000);
afterAll(async () => db?.close(), 60_000);

async function store(encryptionKey?: string): Promise<{ store: TurnStore; driver: SqlDriver }> {
  const driver = poolDriver(db.pool(2), db.driverOptions);
  return { store: await openSqlTurnStore(driver, encryptionKey === undefined ? {} : { encryptionKey }), driver };
}

/** Every row the store wrote for the turn and its conversation, as the database's own text. */
async function rawRows(driver: SqlDriver, turnId: string, conversationId: string): Promise<string> {
  const rows = await Promise.all([
    driver.query(`SELECT input::text, snapshot::text, pending::text, outcome::text FROM rtl_turn WHERE turn_id = $1`, [turnId]),
    driver.query(`SELECT event::text FROM rtl_event WHERE turn_id = $1`, [turnId]),
    driver.query(`SELECT history::text FROM rtl_history WHERE conversation_id = $1`, [conversationId]),
  ]);
  return JSON.stringify(rows);
}

describe('a SQL store with an encryptionKey keeps conversation content as ciphertext', () => {
  it('a turn parks, resumes on another instance with the same key, and no row holds its text in the clear', async () => {
    const a = await store(KEY);
    const b = await store(KEY);
    try {
      const conversationId = `enc-${Date.now()}`;
      const parked = (await collect(durableAgent(worldAgent(), { store: a.store }).run({ message: SECRETS[0], conversationId }))).at(-1) as Done;
      expect(parked.reason).toBe('paused');
      const turnId = parked.snapshot!.turnId;
      const onB = durableAgent(worldAgent(), { store: b.store });
      expect(await onB.decide(turnId, parked.pending![0].requestId, 'yes', 'alice')).toMatchObject({ status: 'accepted' });
      const done = (await collect(onB.continue(turnId))).at(-1) as Done;
      expect([done.reason, done.text]).toEqual(['final', 'noted']);
      // the store reads back what it wrote
      expect((await b.store.getTurn(turnId))?.outcome).toEqual({ reason: 'final', text: 'noted' });
      expect(JSON.stringify(await b.store.history(conversationId))).toContain('wrote hello');
      expect((await b.store.events(turnId)).map((e) => e.event.type)).toContain('tool-result');
      // and the database holds none of it in the clear
      const raw = await rawRows(a.driver, turnId, conversationId);
      expect(raw).toContain('rtlEncrypted');
      for (const text of [...SECRETS, KEY]) expect(leaksOf(raw, text)).toEqual([]);
    } finally {
      await Promise.all([a.store.close(), b.store.close()]);
    }
  });

  it('without the key, with another key, or moved onto another turn, an encrypted row fails closed', async () => {
    const a = await store(KEY);
    const plain = await store();
    const other = await store('another key of sixteen bytes or more');
    try {
      const parked = (await collect(durableAgent(worldAgent(), { store: a.store }).run({ message: 'note moved', conversationId: `moved-${Date.now()}` }))).at(-1) as Done;
      const turnId = parked.snapshot!.turnId;
      await expect(plain.store.getTurn(turnId)).rejects.toThrow(DurableStoreError);
      await expect(other.store.getTurn(turnId)).rejects.toThrow(/does not decrypt/);
      await expect(other.store.events(turnId)).rejects.toThrow(DurableStoreError);
      // the sealed snapshot copied onto a second turn's row: bound to its own turn, it does not open there
      const second = (await collect(durableAgent(worldAgent(), { store: a.store }).run({ message: 'note second', conversationId: `second-${Date.now()}` }))).at(-1) as Done;
      const victim = second.snapshot!.turnId;
      await a.driver.query('UPDATE rtl_turn SET snapshot = (SELECT snapshot FROM rtl_turn WHERE turn_id = $1) WHERE turn_id = $2', [turnId, victim]);
      await expect(a.store.getTurn(victim)).rejects.toThrow(/snapshot does not decrypt/);
      const onA = durableAgent(worldAgent(), { store: a.store });
      await expect(onA.decide(victim, second.pending![0].requestId, 'yes', 'alice')).rejects.toThrow(DurableStoreError);
      await expect(collect(onA.continue(victim))).rejects.toThrow(DurableStoreError);
      expect(await a.driver.query('SELECT 1 FROM rtl_decision WHERE turn_id = $1', [victim])).toEqual([]);
    } finally {
      await Promise.all([a.store.close(), plain.store.close(), other.store.close()]);
    }
  });

  it('a steering message sent from another instance is ciphertext in rtl_control; the worker with the key reads it', async () => {
    const a = await store(KEY);
    const b = await store(KEY);
    try {
      const parked = (await collect(durableAgent(worldAgent(), { store: a.store }).run({ message: 'note steered', conversationId: `enc-steer-${Date.now()}` }))).at(-1) as Done;
      const turnId = parked.snapshot!.turnId;
      expect(await durableAgent(worldAgent(), { store: b.store }).steer(turnId, 'a steering secret 7f3a')).toEqual({ status: 'sent', turnStatus: 'parked' });
      const raw = JSON.stringify(await a.driver.query('SELECT message::text FROM rtl_control WHERE turn_id = $1', [turnId]));
      expect(raw).not.toContain('steering secret');
      expect(await a.store.takeControls(turnId, 1)).toEqual({ steering: ['a steering secret 7f3a'] });
    } finally {
      await Promise.all([a.store.close(), b.store.close()]);
    }
  });

  it('a key shorter than 16 bytes is a ConfigurationError', async () => {
    for (const encryptionKey of ['short', '', new Uint8Array(8)]) {
      await expect(openSqlTurnStore(poolDriver(db.pool(1), db.driverOptions), { encryptionKey })).rejects.toThrow(ConfigurationError);
    }
  });
});
