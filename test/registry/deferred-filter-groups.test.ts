import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivatedToolSet, createAgent, mcpTools, type ChatMessage, type FilterGroup, type ProviderRequest, type Tool, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { scriptedModel, type ScriptedStep } from '../../src/testing/index.js';
import { connectFixture } from '../mcp/fixture-client.js';

let client: Client;
let fx: Tool[];

beforeAll(async () => {
  client = await connectFixture();
  fx = await mcpTools(client, { server: 'fx' });
});
afterAll(async () => {
  await client?.close();
});

const specNames = (req: ProviderRequest) => (req.tools ?? []).map((t) => t.name);
const systemText = (req: ProviderRequest) =>
  req.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
const results = (events: TurnEvent[]) => events.filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result');
const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });
/** Every turn here is one conversation's: activations are kept per conversation. */
const CONVERSATION = 'conv';
const run = (agent: ReturnType<typeof createAgent>, message: string, history?: readonly ChatMessage[]) =>
  lastValueFrom(agent.run({ message, history, conversationId: CONVERSATION }).pipe(toArray()));
const activatedIn = (agent: ReturnType<typeof createAgent>) => agent.resolved.activations.forScope({ conversationId: CONVERSATION });
const historyOf = (events: TurnEvent[]) => events.find((e): e is TurnEventOf<'done'> => e.type === 'done')!.history;

// fx__echo only for messages about github; fx__add only for greetings; fx__search_* always.
const groups: FilterGroup[] = [
  { mode: 'dynamic', tools: ['fx__echo'], keywords: ['github'] },
  { mode: 'dynamic', tools: ['fx__add'], keywords: ['hello'] },
  { mode: 'always', tools: ['fx__search_*'] },
];

function groupedAgent(steps: ScriptedStep[]) {
  const model = scriptedModel(steps);
  return { model, agent: createAgent({ provider: model, model: 'm', tools: [], deferredTools: fx, filterGroups: groups }) };
}

describe('dynamic filter groups decide which deferred tools a turn lists and activates', () => {
  it('a deferred tool whose keyword is not in the message is not listed', async () => {
    const { model, agent } = groupedAgent([{ text: 'hi' }]);
    await run(agent, 'hello');
    const [req] = model.requests;
    expect(systemText(req)).toContain('\nfx__add - ');
    expect(systemText(req)).not.toContain('fx__echo');
    expect(systemText(req)).not.toContain('fx__fail'); // in no group at all
  });

  it('tool_search does not activate it, and a direct call to it ends excluded without running', async () => {
    const { model, agent } = groupedAgent([
      { toolCalls: [call('s', 'tool_search', { query: 'select:fx__echo,fx__add' })] },
      { toolCalls: [call('e', 'fx__echo', { text: 'leak' }), call('a', 'fx__add', { a: 1, b: 2 })] },
      { text: 'ok' },
    ]);
    const [searched, echoed, added] = results(await run(agent, 'hello'));
    expect(searched.output).toMatch(/^Activated 1 deferred tool;/);
    expect(searched.output).not.toContain('fx__echo');
    expect(activatedIn(agent).has('fx__echo')).toBe(false);
    expect(specNames(model.requests[1])).not.toContain('fx__echo');
    expect([echoed.outcome, echoed.output]).toEqual(['excluded', 'Tool not available in this turn: fx__echo']);
    expect(added.outcome).toBe('executed');
  });

  it('with every deferred tool hidden (and none pending) tool_search is not offered', async () => {
    const model = scriptedModel([{ text: 'hi' }]);
    const only: FilterGroup[] = [{ mode: 'dynamic', tools: ['fx__*'], keywords: ['github'] }];
    await run(createAgent({ provider: model, model: 'm', tools: [], deferredTools: fx, filterGroups: only }), 'hello');
    expect(specNames(model.requests[0])).toEqual([]);
    expect(systemText(model.requests[0])).not.toContain('Deferred tools');
  });
});

describe('an activated tool is visible only in turns whose message its group matches', () => {
  it('activated under "github", hidden and excluded for "hello", offered again for "github"', async () => {
    const { model, agent } = groupedAgent([
      { toolCalls: [call('s', 'tool_search', { query: 'select:fx__echo' })] },
      { toolCalls: [call('e1', 'fx__echo', { text: 'one' })] },
      { text: 'turn 1' },
      { toolCalls: [call('e2', 'fx__echo', { text: 'two' })] },
      { text: 'turn 2' },
      { text: 'turn 3' },
    ]);
    const turn1 = await run(agent, 'check my GitHub issues');
    const first = results(turn1);
    expect(first.map((r) => [r.name, r.outcome])).toEqual([
      ['tool_search', 'executed'],
      ['fx__echo', 'executed'],
    ]);
    const turn2 = await run(agent, 'hello', historyOf(turn1));
    const second = results(turn2);
    expect(specNames(model.requests[3])).not.toContain('fx__echo');
    expect([second[0].outcome, second[0].output]).toEqual(['excluded', 'Tool not available in this turn: fx__echo']);
    await run(agent, 'github again', historyOf(turn2));
    expect(specNames(model.requests[5])).toContain('fx__echo');
    expect(activatedIn(agent).has('fx__echo')).toBe(true); // the activation itself persisted
  });

  it('a granted activated set is filtered the same way', async () => {
    const activated = new ActivatedToolSet(fx.filter((t) => t.name === 'fx__echo' || t.name === 'fx__add'));
    const model = scriptedModel([{ toolCalls: [call('e', 'fx__echo', { text: 'x' })] }, { text: 'ok' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [], activated, filterGroups: groups });
    const [echoed] = results(await run(agent, 'hello'));
    expect(specNames(model.requests[0])).toEqual(['fx__add']);
    expect(echoed.outcome).toBe('excluded');
  });
});

describe("an 'always' group still pre-activates its deferred tools, whatever the message", () => {
  it('offers them from the first request, next to tool_search for the dynamic ones', async () => {
    const { model, agent } = groupedAgent([{ text: 'hi' }]);
    await run(agent, 'hello');
    expect(specNames(model.requests[0])).toEqual(['tool_search', 'fx__search_docs']);
    expect(activatedIn(agent).names()).toEqual(['fx__search_docs']);
  });
});
