import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, type TurnEvent, type TurnEventOf, type TurnInput } from '../../src/index.js';
import { DurableStoreError, durableAgent, memoryTurnStore, type TurnStore } from '../../src/durable/index.js';
import { durableBackendsForFile, storeBackends } from './shared-pglite.js';
import { worldAgent } from './world.js';

/** Issue 16, item 7: ids that are no ids (NUL, megabytes, not strings) get typed answers from every store, never a database's own error. */

const MEGABYTE = 'x'.repeat(1024 * 1024);
/** Values that cannot be ids, and what each is. */
const BAD: [string, unknown][] = [
  ['a NUL byte', 'turn\u0000id'],
  ['only a NUL', '\u0000'],
  ['a megabyte', MEGABYTE],
  ['257 characters', 'a'.repeat(257)],
  ['a lone surrogate', 'id-\uD800'],
  ['empty', ''],
  ['a number', 42],
  ['null', null],
  ['an object', { id: 'x' }],
];

const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const refusal = (promise: Promise<unknown>) => promise.then(() => expect.fail('it was accepted'), (err: unknown) => err);
/** A typed refusal that does not repeat a megabyte (nor carry a NUL) back. */
function expectStoreError(err: unknown): void {
  expect(err).toBeInstanceOf(DurableStoreError);
  expect((err as Error).message.length).toBeLessThan(200);
  expect((err as Error).message).not.toContain('\u0000');
}

const backends = storeBackends(durableBackendsForFile());

describe.each(backends)('durable inputs on %s', (_name, open) => {
  let store: TurnStore;
  beforeAll(async () => {
    store = await open();
  }, 60_000);
  afterAll(async () => store?.close());

  it('decide: a turn id, request id or decider that is no id is invalid; the real request still takes its decision', async () => {
    const durable = durableAgent(worldAgent(), { store });
    const done = (await collect(durable.run({ message: 'note this', conversationId: 'inputs-1' }))).at(-1) as TurnEventOf<'done'>;
    const turnId = done.snapshot!.turnId;
    const requestId = done.pending![0].requestId;
    for (const [, bad] of BAD) {
      expect(await durable.decide(bad as string, requestId, 'yes', 'alice')).toEqual({ status: 'invalid' });
      expect(await durable.decide(turnId, bad as string, 'yes', 'alice')).toEqual({ status: 'invalid' });
      if (bad !== undefined) expect(await durable.decide(turnId, requestId, 'yes', bad as string)).toEqual({ status: 'invalid' });
    }
    expect(await durable.decide(turnId, requestId, { replaceWith: 'a\u0000b' }, 'alice')).toMatchObject({ status: 'accepted' }); // JSON keeps a NUL
    expect((await durable.decide(turnId, requestId, 'no', 'bob')).status).toBe('taken');
  });

  it.each(BAD)('continue with %s as the turn id errors with a DurableStoreError', async (_, bad) => {
    const durable = durableAgent(worldAgent(), { store });
    expectStoreError(await refusal(collect(durable.continue(bad as string))));
  });

  it.each(BAD.filter(([, bad]) => bad !== null && bad !== ''))('run and submit with %s as the turn id or the conversation id refuse it, and record nothing', async (_, bad) => {
    const durable = durableAgent(worldAgent(), { store });
    const before = (await store.listTurns()).length;
    const inputs: TurnInput[] = [
      { message: 'note this', ingress: { channel: 'cli', turnId: bad as string } },
      { message: 'note this', conversationId: bad as string },
    ];
    for (const input of inputs) {
      expectStoreError(await refusal(collect(durable.run(input))));
      expectStoreError(await refusal(durable.submit(input)));
    }
    expect((await store.listTurns()).length).toBe(before);
  });

  it('the store itself: writes with an id that is no id are refused typed, reads find nothing', async () => {
    for (const [, bad] of BAD) {
      const id = bad as string;
      expect(await store.getTurn(id)).toBeUndefined();
      expect(await store.decisions(id)).toEqual([]);
      expect(await store.events(id)).toEqual([]);
      expect(await store.history(id)).toEqual([]);
      expect(await store.allowList(id)).toEqual([]);
      expect(await store.activations(id)).toEqual([]);
      expect(await store.conversationState(id, { history: true })).toEqual({ allowList: [], activations: [], history: [] });
      expect(await store.listTurns({ conversationId: id })).toEqual([]);
      expect(await store.auditLog({ turnId: id })).toEqual([]);
      expect(await store.claimTurn(id, 'me', ['queued'])).toBeUndefined();
      const writes: (() => Promise<unknown>)[] = [
        () => store.createTurn({ turnId: id, agent: 'a', input: { message: 'm', ingress: { channel: 'cli', turnId: 't' } }, status: 'queued' }),
        // a conversation id may be left out (null), never be one that is no id
        ...(id === null ? [] : [() => store.createTurn({ turnId: 'fine', agent: 'a', conversationId: id, input: { message: 'm', ingress: { channel: 'cli', turnId: 'fine' } }, status: 'queued' })]),
        () => store.decide({ turnId: 't', requestId: id, decision: 'yes', decidedBy: 'a' }),
        () => store.decide({ turnId: 't', requestId: 'r', decision: 'yes', decidedBy: id }),
        () => store.appendAudit({ turnId: id, conversationId: null, requestId: 'r', toolName: 't', decision: 'yes', decidedBy: 'a', byOperator: true, at: 0 }),
        () => store.allow(id, 'tool'),
        () => store.allow('c', id),
        () => store.activate('c', [id]),
        () => store.saveHistory(id, []),
        () => store.appendEvents(id, [{ type: 'usage', inputTokens: 1, outputTokens: 1 }]),
        () => store.updateTurn(id, 1, { status: 'done' }),
        () => store.claimSnapshot(id, 1),
      ];
      for (const write of writes) expectStoreError(await refusal(write()));
    }
    expect(await store.getTurn('fine')).toBeUndefined();
  });

  it('a NUL inside the data (message, replacement) is kept: only ids are text columns', async () => {
    const durable = durableAgent(worldAgent(), { store });
    const done = (await collect(durable.run({ message: 'plain \u0000 text', conversationId: 'inputs-nul' }))).at(-1) as TurnEventOf<'done'>;
    expect(done.reason).toBe('final');
    expect((await store.history('inputs-nul'))[0]).toEqual({ role: 'user', content: 'plain \u0000 text' });
  });
});

describe('durableAgent refuses an owner or agent name that is no id when it is made', () => {
  it.each(BAD.filter(([, bad]) => bad !== null))('owner: %s', (_, bad) => {
    expect(() => durableAgent(worldAgent(), { store: memoryTurnStore(), owner: bad as string })).toThrow(ConfigurationError);
  });
});
