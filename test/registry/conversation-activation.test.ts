import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ActivationStore, createAgent, defineTool, type ProviderRequest, type TurnEvent, type TurnInput } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

const ping = defineTool({ name: 'remote_ping', description: 'Pings the remote host', parameters: z.object({}), execute: () => 'pong' });
const other = defineTool({ name: 'remote_other', description: 'Something else remote', parameters: z.object({}), execute: () => 'other' });

/**
 * A turn whose message is `search` calls tool_search for remote_ping, then remote_ping; any other
 * message calls remote_ping directly. The requests are recorded per conversation.
 */
function remoteAgent(activated?: ActivationStore) {
  const requests: { conversation: string; message: string; request: ProviderRequest }[] = [];
  const provider = scriptedModel((request) => {
    const user = request.messages.map((m) => m.role).lastIndexOf('user');
    const step = (request.messages.length - 1 - user) / 2;
    const message = String(request.messages[user].content);
    const [conversation, verb] = message.split(':');
    requests.push({ conversation, message, request });
    const calls = verb === 'search' ? ['tool_search', 'remote_ping'] : ['remote_ping'];
    const name = calls[step];
    if (name === undefined) return { text: 'ok' };
    return { toolCalls: [{ id: `c${step}`, name, arguments: name === 'tool_search' ? { query: 'select:remote_ping' } : {} }] };
  });
  const agent = createAgent({ provider, model: 'm', tools: [], deferredTools: [ping, other], ...(activated ? { activated } : {}) });
  return { agent, requests };
}

const outcomes = (events: TurnEvent[]) => events.flatMap((e) => (e.type === 'tool-result' ? [`${e.name}:${e.outcome}`] : []));
const turn = async (agent: ReturnType<typeof createAgent>, message: string, input: Partial<TurnInput> = {}) =>
  outcomes(await lastValueFrom(agent.run({ message, ...input }).pipe(toArray())));
const offered = (request: ProviderRequest) => (request.tools ?? []).map((t) => t.name);

describe('a tool activated by tool_search in one conversation is not visible or runnable in another', () => {
  it('activated in A: offered and runnable in A later; in B never offered and a direct call is unknown', async () => {
    const { agent, requests } = remoteAgent();
    expect(await turn(agent, 'A:search', { conversationId: 'A' })).toEqual(['tool_search:executed', 'remote_ping:executed']);
    expect(await turn(agent, 'B:call', { conversationId: 'B' })).toEqual(['remote_ping:unknown']);
    expect(await turn(agent, 'A:call', { conversationId: 'A' })).toEqual(['remote_ping:executed']);
    for (const { conversation, request } of requests) {
      if (conversation === 'B') expect(offered(request)).not.toContain('remote_ping');
    }
    expect(offered(requests.find((r) => r.message === 'A:call')!.request)).toContain('remote_ping'); // from its first request
  });

  it('two conversations interleaved: each sees only its own activations, and the deferred listing stays for B', async () => {
    const { agent, requests } = remoteAgent();
    await turn(agent, 'A:search', { conversationId: 'A' });
    await turn(agent, 'B:call', { conversationId: 'B' });
    await turn(agent, 'B:search', { conversationId: 'B' });
    expect(await turn(agent, 'B:call', { conversationId: 'B' })).toEqual(['remote_ping:executed']);
    const firstOfB = requests.filter((r) => r.conversation === 'B')[0].request;
    const listing = firstOfB.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
    expect(listing).toContain('remote_ping - ');
  });

  it('a turn without a conversation id keeps its activations to itself', async () => {
    const { agent } = remoteAgent();
    expect(await turn(agent, 'x:search')).toEqual(['tool_search:executed', 'remote_ping:executed']);
    expect(await turn(agent, 'x:call')).toEqual(['remote_ping:unknown']);
    expect(await turn(agent, 'A:call', { conversationId: 'A' })).toEqual(['remote_ping:unknown']);
  });

  it('parallel turns: an activation in A during a running turn of B does not reach B', async () => {
    const { agent, requests } = remoteAgent();
    const results = await Promise.all([turn(agent, 'A:search', { conversationId: 'A' }), turn(agent, 'B:call', { conversationId: 'B' }), turn(agent, 'y:call')]);
    expect(results).toEqual([['tool_search:executed', 'remote_ping:executed'], ['remote_ping:unknown'], ['remote_ping:unknown']]);
    expect(requests.filter((r) => r.conversation !== 'A').every((r) => !offered(r.request).includes('remote_ping'))).toBe(true);
  });
});

describe('the activation store is bounded, and shared only when given to several agents', () => {
  it('beyond maxConversations the least recently used conversation loses its activations', async () => {
    const store = new ActivationStore({ maxConversations: 1 });
    const { agent } = remoteAgent(store);
    await turn(agent, 'A:search', { conversationId: 'A' });
    await turn(agent, 'B:call', { conversationId: 'B' });
    expect(store.size).toBe(1);
    expect(store.forConversation('A')).toBeUndefined();
    expect(await turn(agent, 'A:call', { conversationId: 'A' })).toEqual(['remote_ping:unknown']);
  });

  it('1,000 conversations by default; forget drops one', () => {
    const store = new ActivationStore();
    for (let i = 0; i <= 1000; i++) store.forScope({ conversationId: `c${i}` }).activate(ping);
    expect(store.size).toBe(1000);
    expect(store.forConversation('c0')).toBeUndefined();
    expect(store.forget('c1')).toBe(true);
    expect(store.forScope({ turnId: 't' })).not.toBe(store.forScope({ turnId: 't' })); // turn scopes are not kept
  });

  it("a store shared by two agents grants a conversation's activations to the other agent's turns of it", async () => {
    const store = new ActivationStore();
    const first = remoteAgent(store).agent;
    const second = remoteAgent(store).agent;
    await turn(first, 'A:search', { conversationId: 'A' });
    expect(await turn(second, 'A:call', { conversationId: 'A' })).toEqual(['remote_ping:executed']);
    expect(await turn(second, 'B:call', { conversationId: 'B' })).toEqual(['remote_ping:unknown']);
  });

  it("a sub-agent sharing the store sees the parent's conversation's activations through ctx.conversationId", async () => {
    const store = new ActivationStore();
    const child = remoteAgent(store).agent;
    const delegate = defineTool({
      name: 'delegate',
      description: 'Hands the task to the sub-agent',
      parameters: z.object({ task: z.string() }),
      execute: ({ task }, ctx) => turn(child, task, { conversationId: ctx.conversationId, signal: ctx.signal }).then((r) => r.join(' ')),
    });
    const parentModel = (conversation: string) =>
      scriptedModel([
        { toolCalls: [{ id: 's', name: 'tool_search', arguments: { query: 'select:remote_ping' } }] },
        { toolCalls: [{ id: 'd', name: 'delegate', arguments: { task: `${conversation}:call` } }] },
        { text: 'done' },
      ]);
    const parentIn = (conversation: string) =>
      createAgent({ provider: parentModel(conversation), model: 'm', tools: [delegate], deferredTools: [ping, other], activated: store });
    const delegated = async (conversation: string, conversationId?: string) => {
      const events = await lastValueFrom(parentIn(conversation).run({ message: 'go', conversationId }).pipe(toArray()));
      return events.flatMap((e) => (e.type === 'tool-result' && e.name === 'delegate' ? [e.output] : []));
    };
    expect(await delegated('A', 'A')).toEqual(['remote_ping:executed']);
    expect(await delegated('x')).toEqual(['remote_ping:unknown']); // no conversation: the child's turn is its own scope
  });
});
