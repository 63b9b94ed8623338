import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFERRED_LISTING_BUDGET, createAgent, deferredToolsListing, mcpTools, type ProviderRequest, type Tool, type TurnEvent, type TurnEventOf } from '../../src/index.js';
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

const systemText = (req: ProviderRequest) =>
  req.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
const results = (events: TurnEvent[]) => events.filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result');
const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });

async function runDeferred(steps: ScriptedStep[], deferredTools: readonly Tool[] = fx) {
  const model = scriptedModel(steps);
  const agent = createAgent({ provider: model, model: 'm', tools: [], deferredTools });
  const events = await lastValueFrom(agent.run({ message: 'go' }).pipe(toArray()));
  return { model, events };
}

describe('calling a listed deferred tool before activation says that tool_search activates it', () => {
  it('the unknown slot names tool_search and the exact select: query', async () => {
    const { events } = await runDeferred([{ toolCalls: [call('a', 'fx__add', { a: 1, b: 2 })] }, { text: 'ok' }]);
    const [result] = results(events);
    expect(result.outcome).toBe('unknown');
    expect(result.output).toBe(
      'Unknown tool: fx__add. It is a deferred tool that is not active yet: call tool_search with query "select:fx__add" to activate it, then call it from your next step on.',
    );
  });

  it('a unique {server}__ suffix gets the hint with the full name', async () => {
    const { events } = await runDeferred([{ toolCalls: [call('a', 'add', { a: 1, b: 2 })] }, { text: 'ok' }]);
    const [result] = results(events);
    expect([result.name, result.outcome]).toEqual(['add', 'unknown']);
    expect(result.output).toContain('"select:fx__add"');
  });

  it('a name that is not a deferred tool keeps the plain text', async () => {
    const { events } = await runDeferred([{ toolCalls: [call('a', 'fs__write_file', { path: 'x' })] }, { text: 'ok' }]);
    expect(results(events)[0]).toMatchObject({ outcome: 'unknown', output: 'Unknown tool: fs__write_file' });
  });

  it('following the hint works: tool_search, then the call runs', async () => {
    const { events } = await runDeferred([
      { toolCalls: [call('a', 'fx__echo', { text: 'early' })] },
      { toolCalls: [call('s', 'tool_search', { query: 'select:fx__echo' })] },
      { toolCalls: [call('b', 'fx__echo', { text: 'now' })] },
      { text: 'ok' },
    ]);
    expect(results(events).map((r) => [r.name, r.outcome])).toEqual([
      ['fx__echo', 'unknown'],
      ['tool_search', 'executed'],
      ['fx__echo', 'executed'],
    ]);
  });
});

// 27 tools with ~230-character descriptions: 6 kB of `name - description` lines.
const many = Array.from({ length: 27 }, (_, i) =>
  fakeTool(`fs__tool_${String(i).padStart(2, '0')}`, 'x', { description: `Does file-system thing number ${i}. `.repeat(7) }),
);

describe('past a budget the deferred listing names the tools only', () => {
  it(`a listing within ${DEFERRED_LISTING_BUDGET} characters keeps its descriptions`, () => {
    const few = many.slice(0, 3);
    const text = deferredToolsListing(few);
    for (const tool of few) expect(text).toContain(`\n${tool.name} - Does file-system thing`);
  });

  it('27 long descriptions become 27 names, and the system message stays small', async () => {
    const { model } = await runDeferred([{ text: 'hi' }], many);
    const text = systemText(model.requests[0]);
    expect(text).toContain('Deferred tools (names only):');
    for (const tool of many) expect(text).toContain(`\n${tool.name}`);
    expect(text).not.toContain('Does file-system thing');
    expect(text.length).toBeLessThan(1_000);
  });

  it('the budget is a parameter: the same tools fit a larger one', () => {
    const full = deferredToolsListing(many, 100_000);
    expect(full).toContain('fs__tool_26 - Does file-system thing number 26.');
    expect(deferredToolsListing(many.slice(0, 1), 10)).toMatch(/names only\):\nfs__tool_00$/);
  });
});
