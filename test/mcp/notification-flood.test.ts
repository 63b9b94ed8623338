import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { lastValueFrom, tap, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalManager, ConfigurationError, createAgent, mcpTools, type Tool, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { MAX_MCP_LIST_PAGES } from '../../src/mcp/mcp-tools.js';
import { scriptedModel } from '../../src/testing/index.js';
import type { FixtureConfig } from '../fixtures/mcp-hostile.js';
import { connectFixture } from './fixture-client.js';

/**
 * A real server that floods its client with notifications (tools/list_changed, logging,
 * progress for a token nobody asked about) during a call, after it, and forever while ignoring
 * the cancellation; and a server whose tool listing never ends. The client and the loop stay
 * bounded: the turn ends (answered, timed out or cancelled), the client stays usable, and
 * `mcpTools` refuses a listing without end instead of reading it forever.
 */

let evil: Client;
let tools: Tool[];
beforeAll(async () => {
  evil = await connectFixture({ baseTools: false, flood: true });
  tools = await mcpTools(evil, { server: 'evil' });
}, 60_000);
afterAll(async () => {
  await evil?.close();
});

const state = async (token: string): Promise<{ sent: number; cancelled: boolean } | null> =>
  JSON.parse(((await evil.callTool({ name: 'flood_state', arguments: { token } })).content as { text: string }[])[0].text);
const results = (events: TurnEvent[]) => events.filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result');

function turn(args: Record<string, unknown>, name = 'evil__flood', knobs: { toolTimeoutMs?: number } = {}, signal?: AbortSignal) {
  const agent = createAgent({
    provider: scriptedModel([{ toolCalls: [{ id: 'f', name, arguments: args }] }, { text: 'ok' }]),
    model: 'm',
    tools,
    approval: new ApprovalManager({ level: 'full' }),
    knobs,
  });
  const events: TurnEvent[] = [];
  return lastValueFrom(agent.run({ message: 'go', signal }).pipe(tap((e) => events.push(e)), toArray())).then(() => ({ events }));
}

describe('a server that floods notifications never holds a turn', () => {
  it.each(['list_changed', 'logging', 'progress', 'all'])('%s × 3,000 during a call: the call answers and the turn ends', async (kind) => {
    const { events } = await turn({ kind, count: 3_000 });
    expect(results(events).map((r) => [r.outcome, r.output])).toEqual([['executed', 'flooded 3000']]);
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'final' });
  }, 60_000);

  it('a flood that never answers and ignores the cancellation: the tool timeout ends the turn, and the server was told', async () => {
    // the timeout's own verdict ends the slot; a turn the flood held would never get here (the case's timeout fails it)
    const { events } = await turn({ kind: 'all', token: 'deaf', ignoreCancel: true }, 'evil__flood_forever', { toolTimeoutMs: 300 });
    expect(results(events).map((r) => [r.outcome, r.output])).toEqual([['failed', 'Error executing evil__flood_forever: timed out after 300 ms']]);
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'final' });
    expect(await state('deaf')).toMatchObject({ cancelled: true });
  }, 60_000);

  it('cancelling the turn mid-flood ends it cancelled, the slot interrupted, the flood stopped', async () => {
    const controller = new AbortController();
    const running = turn({ kind: 'all', token: 'stop' }, 'evil__flood_forever', {}, controller.signal);
    while (((await state('stop'))?.sent ?? 0) < 1_000) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const { events } = await running;
    expect(results(events).map((r) => r.outcome)).toEqual(['interrupted']);
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'cancelled' });
    expect(await state('stop')).toMatchObject({ cancelled: true });
  }, 60_000);

  it('while a deaf flood still runs, the same client lists tools and runs another call', async () => {
    expect((await state('deaf'))!.sent).toBeGreaterThan(0);
    expect((await mcpTools(evil, { server: 'again' })).map((t) => t.name)).toContain('again__flood');
    const { events } = await turn({ kind: 'progress', count: 10 });
    expect(results(events).map((r) => r.output)).toEqual(['flooded 10']);
  }, 60_000);
});

describe('a tool listing without end is refused, never read forever', () => {
  const listing = (cursors?: 'repeat' | 'endless'): FixtureConfig => ({
    baseTools: false,
    tools: ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name })),
    listing: { pageSize: 2, ...(cursors ? { cursors } : {}) },
  });

  it('pages that end are all read', async () => {
    const server = await connectFixture(listing());
    try {
      expect((await mcpTools(server, { server: 'paged' })).map((t) => t.name)).toEqual(['paged__a', 'paged__b', 'paged__c', 'paged__d', 'paged__e']);
    } finally {
      await server.close();
    }
  }, 30_000);

  it.each([
    ['the same cursor handed out again', 'repeat', /a cursor handed out twice/],
    ['a new cursor every time', 'endless', new RegExp(`more than ${MAX_MCP_LIST_PAGES} pages`)],
  ] as const)('%s: a ConfigurationError, and no tool of the server is used', async (_, cursors, message) => {
    const server = await connectFixture(listing(cursors));
    try {
      const error = await mcpTools(server, { server: 'endless' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(message);
    } finally {
      await server.close();
    }
  }, 60_000);
});
