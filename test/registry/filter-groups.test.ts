import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, mcpTools, type FilterGroup, type ProviderRequest, type Tool, type TurnEventOf } from '../../src/index.js';
import { fakeTool, scriptedModel, type ScriptedStep } from '../../src/testing/index.js';
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

const calc = fakeTool('calc', '42');
// A built-in whose name a group's glob matches: filter groups still leave it alone.
const local = fakeTool('fx__local', 'local');
const groups: FilterGroup[] = [
  { mode: 'always', tools: ['fx__echo'] },
  { mode: 'dynamic', tools: ['fx__add', 'fx__search_*', 'fx__local'], keywords: ['Math', 'docs'] },
];
const specNames = (req: ProviderRequest) => (req.tools ?? []).map((t) => t.name);

async function firstRequest(message: string, filterGroups?: FilterGroup[], steps: ScriptedStep[] = [{ text: 'ok' }]) {
  const model = scriptedModel(steps);
  const agent = createAgent({ provider: model, model: 'm', tools: [calc, local, ...fx], filterGroups });
  const events = await lastValueFrom(agent.run({ message }).pipe(toArray()));
  return { req: model.requests[0], events };
}

describe('filter groups decide which MCP tools a turn exposes; built-ins are not affected', () => {
  it("without a matching keyword only 'always' groups expose MCP tools", async () => {
    const { req } = await firstRequest('hello there', groups);
    expect(specNames(req)).toEqual(['calc', 'fx__local', 'fx__echo']);
  });

  it('a dynamic group exposes its tools when a keyword is in the message, case-insensitively', async () => {
    const { req } = await firstRequest('can you do some MATH for me?', groups);
    expect(specNames(req)).toEqual(['calc', 'fx__local', 'fx__echo', 'fx__add', 'fx__search_docs']);
  });

  it('an MCP tool no group exposes cannot be run this turn: the call ends excluded', async () => {
    const { events } = await firstRequest('hello', groups, [
      { toolCalls: [{ id: 'a', name: 'fx__add', arguments: { a: 1, b: 2 } }, { id: 'b', name: 'fx__echo', arguments: { text: 'hi' } }] },
      { text: 'ok' },
    ]);
    const results = events.filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result');
    expect(results.map((r) => [r.name, r.outcome, r.output])).toEqual([
      ['fx__add', 'excluded', 'Tool not available in this turn: fx__add'],
      ['fx__echo', 'executed', 'echo: hi'],
    ]);
  });

  it('with no groups every tool passes', async () => {
    const { req } = await firstRequest('hello');
    expect(specNames(req)).toEqual(['calc', 'fx__local', ...fx.map((t) => t.name)]);
  });

  it('a dynamic group without keywords is a configuration error', () => {
    expect(() =>
      createAgent({ provider: scriptedModel([]), model: 'm', tools: fx, filterGroups: [{ mode: 'dynamic', tools: ['fx__*'] }] }),
    ).toThrow(ConfigurationError);
  });
});
