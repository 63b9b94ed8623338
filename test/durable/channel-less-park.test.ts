import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, pauseForApproval, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { durableAgent } from '../../src/durable/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { durableBackendsForFile, storeBackends } from './shared-pglite.js';

/**
 * Issue 58, parking: a turn whose ingress names no channel parks, its decision is accepted, and
 * it resumes to its end — on every store, since each keeps the snapshot (with its ingress) in its
 * own way. (It used to park, then every resume refused its snapshot and the store marked it failed.)
 */

const db = durableBackendsForFile();
const collect = (events$: Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const ingresses = [{ replyTarget: 'thread-7' }, { agentAlias: 'helper' }, {}];

describe.each(storeBackends(db))('a turn without a channel parks and resumes on %s', (_, openStore) => {
  it.each(ingresses)('ingress %j: decided, resumed, done; the tool ran once', async (ingress) => {
    const tool = fakeTool('write', 'written', { risk: 'write' });
    const agent = createAgent({
      provider: scriptedModel((request) => (request.messages.some((m) => m.role === 'assistant') ? { text: 'done' } : { toolCalls: [{ id: 'c0', name: 'write', arguments: {} }] })),
      model: 'm',
      tools: [tool],
      approval: new ApprovalManager({ level: 'supervised' }, pauseForApproval()),
    });
    const durable = durableAgent(agent, { store: await openStore() }); // a conversation of its own: the test database's store is shared by the file
    const parked = (await collect(durable.run({ message: 'go', conversationId: randomUUID(), ingress: ingress as never }))).at(-1) as TurnEventOf<'done'>;
    expect(parked.reason).toBe('paused');
    const turnId = parked.snapshot!.turnId;
    expect(await durable.decide(turnId, parked.pending![0].requestId, 'yes', 'alice')).toMatchObject({ status: 'accepted', ready: true });
    const done = (await collect(durable.continue(turnId))).at(-1) as TurnEventOf<'done'>;
    expect([done.reason, done.text, tool.calls.length]).toEqual(['final', 'done', 1]);
    expect((await durable.store.getTurn(turnId))?.status).toBe('done');
  });
});
