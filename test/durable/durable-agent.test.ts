import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { TurnEvent, TurnEventOf } from '../../src/index.js';
import { ConversationBusyError, durableAgent, memoryTurnStore, openSqlTurnStore, poolDriver, type TurnStore } from '../../src/durable/index.js';
import { durableBackendsForFile, sharedPgliteStore } from './shared-pglite.js';
import { worldAgent } from './world.js';

type Done = TurnEventOf<'done'>;
const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const doneOf = (events: TurnEvent[]) => events[events.length - 1] as Done;

/** The same turn answered at once, in one process, without a store: what every durable run must reach. */
async function oneProcess(message: string, answers: string[]): Promise<Done> {
  const agent = worldAgent({}, { name: 'test', ask: () => (answers.shift() ?? 'no') as 'yes' | 'no' });
  return doneOf(await collect(agent.run({ message, conversationId: 'ref' })));
}

const db = durableBackendsForFile();

/** Each backend, and whether a second `open()` is another instance on the same data (else: the same store watches itself). */
const backends: [string, () => Promise<TurnStore>, boolean][] = [
  ['memory', async () => memoryTurnStore(), false],
  ['pglite in this process', () => sharedPgliteStore(), false],
  ['the test database', () => openSqlTurnStore(poolDriver(db().pool(), db().driverOptions), { pollMs: 20 }), true],
];

describe.each(backends)('durableAgent on %s', (_name, open, shared) => {
  it('parks at an approval, is decided and continued, and reaches the one-process history', async () => {
    const store = await open();
    try {
      const durable = durableAgent(worldAgent(), { store });
      const first = doneOf(await collect(durable.run({ message: 'note this', conversationId: 'c1' })));
      expect(first.reason).toBe('paused');
      const turnId = first.snapshot!.turnId;
      const parked = await store.getTurn(turnId);
      expect(parked).toMatchObject({ status: 'parked', conversationId: 'c1' });
      expect(parked!.pending.map((p) => p.toolName)).toEqual(['write']);
      const requestId = parked!.pending[0].requestId;
      expect(await durable.decide(turnId, 'nope', 'yes')).toEqual({ status: 'not-pending' });
      expect(await durable.decide(turnId, requestId, 'maybe' as never)).toEqual({ status: 'invalid' });
      const decided = await durable.decide(turnId, requestId, 'yes', 'alice');
      expect(decided).toMatchObject({ status: 'accepted', ready: true });
      expect(await durable.decide(turnId, requestId, 'no', 'bob')).toMatchObject({ status: 'taken', winner: { decision: 'yes', decidedBy: 'alice' } });
      // a fresh agent object, as another process would build it
      const other = durableAgent(worldAgent(), { store });
      const done = doneOf(await collect(other.continue(turnId)));
      const reference = await oneProcess('note this', ['yes']);
      expect(done.reason).toBe('final');
      expect(done.text).toBe(reference.text);
      expect(done.history).toEqual(reference.history);
      expect(await store.getTurn(turnId)).toMatchObject({ status: 'done', outcome: { reason: 'final', text: 'noted' } });
      expect(await store.history('c1')).toEqual(reference.history);
      const audit = await store.auditLog({ turnId });
      expect(audit.map((a) => [a.toolName, a.decision, a.decidedBy])).toEqual([['write', 'yes', 'alice']]);
      const types = (await store.events(turnId)).map((e) => e.event.type);
      expect(types.filter((t) => t === 'done')).toHaveLength(2); // parked, then final
      expect(types).toContain('approval-decision');
      // nothing left to do: continuing again runs nothing
      expect(await collect(other.continue(turnId))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("keeps an operator's always in the conversation across turns and instances", async () => {
    const store = await open();
    try {
      const a = durableAgent(worldAgent(), { store });
      const first = doneOf(await collect(a.run({ message: 'twice please', conversationId: 'c2' })));
      const turnId = first.snapshot!.turnId;
      const [request] = (await store.getTurn(turnId))!.pending;
      await a.decide(turnId, request.requestId, 'always', 'alice');
      const b = durableAgent(worldAgent(), { store });
      const done = doneOf(await collect(b.continue(turnId)));
      expect(done.reason).toBe('final'); // the second write ran without a prompt
      expect(await store.allowList('c2')).toEqual(['write']);
      const c = durableAgent(worldAgent(), { store });
      const next = doneOf(await collect(c.run({ message: 'twice more', conversationId: 'c2' })));
      expect(next.reason).toBe('final'); // a new instance restores the list from the store
      expect(next.history.length).toBeGreaterThan(done.history.length); // the conversation's history was loaded
      // the three in one read, as a worker starts a run; the history only when asked for
      await store.activate('c2', ['b_tool', 'a_tool']);
      const state = await store.conversationState('c2', { history: true });
      expect(state).toEqual({ allowList: await store.allowList('c2'), activations: ['a_tool', 'b_tool'], history: await store.history('c2') });
      expect(await store.conversationState('c2')).toEqual({ allowList: ['write'], activations: ['a_tool', 'b_tool'] });
      expect(await store.conversationState('nobody', { history: true })).toEqual({ allowList: [], activations: [], history: [] });
      expect(doneOf(await collect(c.run({ message: 'twice again', conversationId: 'c3' }))).reason).toBe('paused'); // not another conversation's
    } finally {
      await store.close();
    }
  });

  it('continue exclusive: one turn of a conversation at a time, its queued turns in submit order', async () => {
    const store = await open();
    const other = shared ? await open() : store;
    try {
      const submitter = durableAgent(worldAgent(), { store });
      const worker = durableAgent(worldAgent(), { store: other });
      await store.createTurn({ turnId: 'x-0', agent: 'world', conversationId: 'x', input: { message: 'plain zero', ingress: { channel: 'cli', turnId: 'x-0' } }, status: 'running' });
      for (const turnId of ['x-1', 'x-2']) await submitter.submit({ message: 'plain one', conversationId: 'x', ingress: { channel: 'cli', turnId } });
      // turns of any of several statuses, in one read (the queue's nudge)
      expect((await store.listTurns({ conversationId: 'x', status: ['running', 'queued'] })).map((t) => [t.turnId, t.status])).toEqual([['x-0', 'running'], ['x-1', 'queued'], ['x-2', 'queued']]);
      expect(await store.listTurns({ conversationId: 'x', status: ['parked', 'nope' as never] })).toEqual([]);
      await expect(collect(worker.continue('x-1', { exclusive: true }))).rejects.toBeInstanceOf(ConversationBusyError); // x-0 runs
      expect(await store.updateTurn('x-0', 1, { status: 'done' })).toBe(true);
      await expect(collect(worker.continue('x-2', { exclusive: true }))).rejects.toMatchObject({ code: 'conversation_busy', conversationId: 'x' }); // x-1 first
      expect((await store.getTurn('x-2'))?.status).toBe('queued'); // a busy turn is left as it was
      expect(doneOf(await collect(worker.continue('x-1', { exclusive: true }))).reason).toBe('final');
      expect(doneOf(await collect(worker.continue('x-2', { exclusive: true }))).reason).toBe('final');
      expect(await collect(worker.continue('x-2', { exclusive: true }))).toEqual([]); // nothing left to do: empty, not busy
    } finally {
      if (other !== store) await other.close();
      await store.close();
    }
  });

  it('a decision arrives at another instance through watch', async () => {
    const store = await open();
    const other = shared ? await open() : store;
    try {
      const seen = new Promise<string>((resolve) => {
        const stop = other.watch((change) => {
          if (change.kind === 'decision') {
            stop();
            resolve(change.turnId);
          }
        });
      });
      const durable = durableAgent(worldAgent(), { store });
      const first = doneOf(await collect(durable.run({ message: 'note it', conversationId: 'c4' })));
      const turnId = first.snapshot!.turnId;
      await durable.decide(turnId, first.pending![0].requestId, 'no');
      expect(await seen).toBe(turnId);
    } finally {
      if (other !== store) await other.close();
      await store.close();
    }
  });

  it("a row's change and the events given with it are written together, or neither once another claim took the turn", async () => {
    const store = await open();
    try {
      const input = { message: 'm', ingress: { channel: 'cli', turnId: 'u-1' } };
      await store.createTurn({ turnId: 'u-1', agent: 'world', input, status: 'running' });
      const seen = new Promise<void>((resolve) => {
        const stop = store.watch((change) => change.kind === 'event' && change.turnId === 'u-1' && (stop(), resolve()));
      });
      const events: TurnEvent[] = [{ type: 'iteration', iteration: 0 }, { type: 'text-delta', iteration: 0, text: 'hi' }];
      expect(await store.updateTurn('u-1', 1, { status: 'parked' }, events)).toBe(true);
      await seen; // watchers hear of the events
      expect((await store.events('u-1')).map((e) => e.event)).toEqual(events);
      await store.claimTurn('u-1', 'other', ['parked']);
      expect(await store.updateTurn('u-1', 1, { status: 'done' }, [{ type: 'iteration', iteration: 1 }])).toBe(false);
      expect(await store.getTurn('u-1')).toMatchObject({ status: 'running', attempt: 2 });
      expect(await store.events('u-1')).toHaveLength(2);
    } finally {
      await store.close();
    }
  });
});
