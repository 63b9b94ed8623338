import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, tap, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, mcpTools, type Tool, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { createFixtureServer } from '../fixtures/mcp-server.js';

let mcp: McpServer;
let http: Server;
let client: Client;
let tools: Tool[];

beforeAll(async () => {
  mcp = createFixtureServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  http = createServer((req, res) => {
    transport.handleRequest(req, res).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  client = new Client({ name: 'rx-tool-loop-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  tools = await mcpTools(client, { server: 'web' });
});

afterAll(async () => {
  await client?.close();
  await mcp?.close();
  http?.closeAllConnections();
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
});

const results = (events: TurnEvent[]) => events.filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result');
const textOf = (result: unknown): string =>
  ((result as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

describe('MCP tools work over Streamable HTTP as over stdio', () => {
  it('lists the served tools as {server}__{tool} and calls them through the HTTP transport', async () => {
    expect(tools.map((t) => t.name)).toContain('web__add');
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 'a', name: 'web__add', arguments: { a: 2, b: 3 } }, { id: 'b', name: 'web__fail', arguments: {} }] }, { text: 'ok' }]),
      model: 'm',
      tools,
    });
    const events = await lastValueFrom(agent.run({ message: 'add' }).pipe(toArray()));
    expect(results(events).map((r) => [r.name, r.outcome, r.output])).toEqual([
      ['web__add', 'executed', '5'],
      ['web__fail', 'failed', 'Error: the disk is on fire'],
    ]);
  });

  it('cancelling the turn cancels the call on the server', async () => {
    const controller = new AbortController();
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 's', name: 'web__slow', arguments: { token: 'http-1' } }] }]),
      model: 'm',
      tools,
    });
    const events: TurnEvent[] = [];
    const done = lastValueFrom(agent.run({ message: 'go', signal: controller.signal }).pipe(tap((e) => events.push(e))));
    await client.callTool({ name: 'wait_started', arguments: { token: 'http-1' } });
    controller.abort();
    expect(textOf(await client.callTool({ name: 'was_cancelled', arguments: { token: 'http-1' } }))).toMatch(/^cancelled http-1: /);
    expect(await done).toMatchObject({ type: 'done', reason: 'cancelled' });
    expect(results(events).map((r) => r.outcome)).toEqual(['interrupted']);
  });
});
