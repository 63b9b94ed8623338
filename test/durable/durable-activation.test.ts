import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { durableAgent, memoryTurnStore, openSqlTurnStore, poolDriver, type TurnStore } from '../../src/durable/index.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';

const ping = defineTool({ name: 'remote_ping', description: 'Pings the remote host', risk: 'read', parameters: z.object({}), execute: () => 'pong' });

/** A message `search` calls tool_search for remote_ping, then remote_ping; `call` calls remote_ping at once. A new agent per instance. */
function instance() {
  const provider = scriptedModel((request) => {
    const user = request.messages.map((m) => m.role).lastIndexOf('user');
    const step = request.messages.slice(user).filter((m) => m.role === 'assistant').length;
    const calls = String(request.messages[user].content) === 'search' ? ['tool_search', 'remote_ping'] : ['remote_ping'];
    const name = calls[step];
    if (name === undefined) return { text: 'ok' };
    return { toolCalls: [{ id: `c${step}`, name, arguments: name === 'tool_search' ? { query: 'select:remote_ping' } : {} }] };
  });
  return createAgent({ provider, model: 'm', tools: [], deferredTools: [ping] });
}

const outcomes = async (events$: import('rxjs').Observable<TurnEvent>) =>
  (await lastValueFrom(events$.pipe(toArray()))).flatMap((e) => (e.type === 'tool-result' ? [`${e.name}:${e.outcome}`] : []));

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
}, 120_000);
afterAll(async () => db?.close(), 60_000);

describe.each([
  ['memory', async (): Promise<TurnStore> => memoryTurnStore()],
  ['the test database', (): Promise<TurnStore> => openSqlTurnStore(poolDriver(db.pool(2), db.driverOptions))],
])('deferred tools a conversation activated, on %s', (_name, open) => {
  it('are active for its next turn on another instance, and only in that conversation', async () => {
    const store = await open();
    try {
      expect(await outcomes(durableAgent(instance(), { store }).run({ message: 'search', conversationId: 'A' }))).toEqual(['tool_search:executed', 'remote_ping:executed']);
      expect(await store.activations('A')).toEqual(['remote_ping']);
      const other = durableAgent(instance(), { store }); // a fresh agent, as another process has
      expect(await outcomes(other.run({ message: 'call', conversationId: 'A' }))).toEqual(['remote_ping:executed']);
      expect(await outcomes(other.run({ message: 'call', conversationId: 'B' }))).toEqual(['remote_ping:unknown']);
    } finally {
      await store.close();
    }
  });
});
