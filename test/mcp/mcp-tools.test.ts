import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { lastValueFrom, tap, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, mcpTools, type Tool, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { connectFixture } from './fixture-client.js';

let client: Client;
let tools: Tool[];

beforeAll(async () => {
  client = await connectFixture();
  tools = await mcpTools(client, { server: 'fx' });
});
afterAll(async () => {
  await client?.close();
});

const results = (events: TurnEvent[]) => events.filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result');
const textOf = (result: unknown): string =>
  ((result as { content: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

async function runCalls(calls: { id: string; name: string; arguments: unknown }[]): Promise<TurnEvent[]> {
  const agent = createAgent({ provider: scriptedModel([{ toolCalls: calls }, { text: 'done' }]), model: 'm', tools });
  return lastValueFrom(agent.run({ message: 'go' }).pipe(toArray()));
}

describe('MCP tools are named {server}__{tool}, attributed to their server, with the server schema', () => {
  it('lists every server tool as {server}__{tool}', async () => {
    expect(tools.map((t) => t.name)).toEqual([
      'fx__echo',
      'fx__add',
      'fx__search_docs',
      'fx__slow',
      'fx__wait_started',
      'fx__was_cancelled',
      'fx__fail',
      'fx__protocol_error',
    ]);
    const echo = tools[0];
    expect(echo.attribution).toEqual({ source: 'mcp', server: 'fx', originalName: 'echo' });
    expect(echo.description).toBe('Echoes the given text back');
  });

  it("uses the server's inputSchema, frozen once and shared by every spec", async () => {
    const listed = await client.listTools();
    const add = tools.find((t) => t.name === 'fx__add')!;
    const { $schema, ...served } = listed.tools.find((t) => t.name === 'add')!.inputSchema;
    expect($schema).toBeDefined();
    expect(add.spec.parameters).toEqual(served);
    expect(Object.isFrozen(add.spec.parameters)).toBe(true);
    expect(Object.isFrozen(add.spec.parameters.properties)).toBe(true);
    expect(add.openAI.function.parameters).toBe(add.spec.parameters);
  });

  it("a readOnlyHint makes a tool 'read' only for a trusted server; the caller's risk applies to every tool", async () => {
    expect(tools.find((t) => t.name === 'fx__search_docs')!.risk).toBe('write');
    expect(tools.find((t) => t.name === 'fx__echo')!.risk).toBe('write');
    const trusted = await mcpTools(client, { server: 'fx', trustAnnotations: true });
    expect(trusted.find((t) => t.name === 'fx__search_docs')!.risk).toBe('read');
    expect(trusted.find((t) => t.name === 'fx__echo')!.risk).toBe('write');
    const egress = await mcpTools(client, { server: 'net', risk: 'egress' });
    expect(new Set(egress.map((t) => t.risk))).toEqual(new Set(['egress']));
  });

  it('rejects a server name that would blur the {server}__{tool} split', async () => {
    await expect(mcpTools(client, { server: 'a__b' })).rejects.toBeInstanceOf(ConfigurationError);
    await expect(mcpTools(client, { server: '' })).rejects.toBeInstanceOf(ConfigurationError);
  });
});

describe('calls go over the protocol and their text content becomes the output', () => {
  it('runs MCP tools in a turn and joins text content with newlines', async () => {
    const events = await runCalls([
      { id: 'a', name: 'fx__echo', arguments: { text: 'hi' } },
      { id: 'b', name: 'fx__search_docs', arguments: { query: 'rxjs' } },
    ]);
    expect(results(events).map((r) => [r.name, r.outcome, r.output])).toEqual([
      ['fx__echo', 'executed', 'echo: hi'],
      ['fx__search_docs', 'executed', '1 result for rxjs\nREADME.md'],
    ]);
  });

  it('checks arguments against the server schema before calling, so the model can correct itself', async () => {
    const events = await runCalls([{ id: 'a', name: 'fx__add', arguments: { a: 1, b: 'two' } }]);
    const [result] = results(events);
    expect(result.outcome).toBe('invalid-arguments');
    expect(result.output).toContain("property 'b' must be number, got string");
  });
});

describe('cancelling the turn sends MCP notifications/cancelled for the running call', () => {
  it('the server sees the cancellation and the slot ends interrupted', async () => {
    const controller = new AbortController();
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 's1', name: 'fx__slow', arguments: { token: 'turn-1' } }] }]),
      model: 'm',
      tools,
    });
    const events: TurnEvent[] = [];
    const done = lastValueFrom(agent.run({ message: 'go', signal: controller.signal }).pipe(tap((e) => events.push(e))));
    // Await the server's own word that the call is running, then cancel mid-call.
    expect(textOf(await client.callTool({ name: 'wait_started', arguments: { token: 'turn-1' } }))).toBe('started turn-1');
    controller.abort();
    expect(textOf(await client.callTool({ name: 'was_cancelled', arguments: { token: 'turn-1' } }))).toMatch(/^cancelled turn-1: /);
    expect(await done).toMatchObject({ type: 'done', reason: 'cancelled' });
    expect(results(events).map((r) => [r.name, r.outcome])).toEqual([['fx__slow', 'interrupted']]);
  });

  it('a tool timeout cancels the call on the server and fails the slot', async () => {
    const timed = await mcpTools(client, { server: 'fx', timeoutMs: 200 });
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 's1', name: 'fx__slow', arguments: { token: 'timeout-1' } }] }, { text: 'ok' }]),
      model: 'm',
      tools: timed,
    });
    const events = await lastValueFrom(agent.run({ message: 'go' }).pipe(toArray()));
    expect(textOf(await client.callTool({ name: 'was_cancelled', arguments: { token: 'timeout-1' } }))).toMatch(/^cancelled timeout-1: /);
    const [result] = results(events);
    expect(result.outcome).toBe('failed');
    expect(result.output).toBe('Error executing fx__slow: timed out after 200 ms');
  });
});

describe('MCP errors and isError results become failed results', () => {
  it('isError: true → failed, with the server text', async () => {
    const [result] = results(await runCalls([{ id: 'a', name: 'fx__fail', arguments: {} }]));
    expect(result).toMatchObject({ outcome: 'failed', success: false, output: 'Error: the disk is on fire' });
  });

  it('a JSON-RPC error → failed, naming the server and the protocol error once', async () => {
    const [result] = results(await runCalls([{ id: 'a', name: 'fx__protocol_error', arguments: {} }]));
    expect(result.outcome).toBe('failed');
    expect(result.output).toBe("Error: MCP server 'fx' failed the call: MCP error -32042: authorization required");
  });

  it('the rest of the batch still runs after a failed MCP call', async () => {
    const events = await runCalls([
      { id: 'a', name: 'fx__fail', arguments: {} },
      { id: 'b', name: 'fx__add', arguments: { a: 2, b: 3 } },
    ]);
    expect(results(events).map((r) => [r.outcome, r.output])).toEqual([
      ['failed', 'Error: the disk is on fire'],
      ['executed', '5'],
    ]);
  });
});
