import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, TurnEvent, TurnEventOf } from '../../src/index.js';
import { openSqlTurnStore, poolDriver, type TurnStore } from '../../src/durable/index.js';
import { runChild } from './processes.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';
import { worldAgent } from './world.js';

type Done = TurnEventOf<'done'>;
let db: TestDatabase;
let store: TurnStore;
beforeAll(async () => {
  db = await openTestDatabase();
  store = await openSqlTurnStore(poolDriver(db.pool(), db.driverOptions), { pollMs: 50 });
}, 120_000);
afterAll(async () => {
  await store?.close();
  await db?.close();
});

async function oneProcess(message: string, answers: string[]): Promise<Done> {
  const agent = worldAgent({}, { name: 'test', ask: () => (answers.shift() ?? 'no') as 'yes' | 'no' });
  const events: TurnEvent[] = await lastValueFrom(agent.run({ message, conversationId: 'ref' }).pipe(toArray()));
  return events[events.length - 1] as Done;
}

describe('a durable turn across processes', () => {
  it('A parks and exits, B decides, C resumes: the history equals the one-process run', async () => {
    const parked = await runChild<{ turnId: string; reason: string; pending: string[] }>(db, ['park', 'note across processes', 'conv-abc']);
    expect(parked.reason).toBe('paused');
    expect((await store.getTurn(parked.turnId))?.status).toBe('parked');
    const decided = await runChild<{ status: string; ready: boolean }>(db, ['decide', parked.turnId, parked.pending[0], 'yes']);
    expect(decided).toMatchObject({ status: 'accepted', ready: true });
    const again = await runChild<{ status: string; winner: { decision: string } }>(db, ['decide', parked.turnId, parked.pending[0], 'no']);
    expect(again).toMatchObject({ status: 'taken', winner: { decision: 'yes' } });
    const resumed = await runChild<{ reason: string; text: string; history: ChatMessage[] }>(db, ['continue', parked.turnId]);
    const reference = await oneProcess('note across processes', ['yes']);
    expect(resumed.reason).toBe('final');
    expect(resumed.text).toBe(reference.text);
    expect(resumed.history).toEqual(reference.history);
    expect(await store.history('conv-abc')).toEqual(reference.history);
    expect((await store.auditLog({ turnId: parked.turnId })).map((a) => a.decision)).toEqual(['yes']);
  }, 120_000);

  it('a decision "no" from another process reaches the same history as answering no at once', async () => {
    const parked = await runChild<{ turnId: string; pending: string[] }>(db, ['park', 'note denied', 'conv-no']);
    await runChild(db, ['decide', parked.turnId, parked.pending[0], 'no']);
    const resumed = await runChild<{ history: ChatMessage[] }>(db, ['continue', parked.turnId]);
    expect(resumed.history).toEqual((await oneProcess('note denied', ['no'])).history);
  }, 120_000);
});
