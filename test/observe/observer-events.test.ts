import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type Logger, type ObserverEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'looks up',
  parameters: z.object({ q: z.string(), password: z.string().optional() }),
  execute: ({ q }) => `found ${q}; api_key=ABCDEFGH12345678`,
});
const fail = defineTool({ name: 'fail', description: 'fails', parameters: z.object({}), execute: () => ({ success: false, output: '', error: 'no luck' }) });

function run(ingress?: { channel: string; agentAlias?: string; parentAgentAlias?: string; turnId?: string }, observers: ((e: ObserverEvent) => void)[] = []) {
  const events: ObserverEvent[] = [];
  let t = 1000;
  const agent = createAgent({
    name: 'helper',
    provider: scriptedModel([
      {
        toolCalls: [
          { id: 'call-1', name: 'lookup', arguments: { q: 'x', password: 'hunter2hunter2' } },
          { id: 'call-2', name: 'fail', arguments: {} },
          { id: 'call-3', name: 'ghost', arguments: { a: 1 } },
        ],
      },
      { text: 'ok' },
    ]),
    model: 'm',
    tools: [lookup, fail],
    observers: [...observers, (e) => events.push(e)],
    clock: { now: () => (t += 10) },
    ids: () => 'generated-id',
  });
  return agent.complete({ message: 'go', ingress }).then(() => events);
}

describe('observer events carry every correlation field', () => {
  it('tool-call-start and tool-call-end per slot, with tool, id, scrubbed arguments, channel, aliases and turn id', async () => {
    const events = await run({ channel: 'slack', agentAlias: 'researcher', parentAgentAlias: 'planner', turnId: 'turn-42' });
    const correlation = { channel: 'slack', agentAlias: 'researcher', parentAgentAlias: 'planner', turnId: 'turn-42' };
    expect(events).toEqual([
      { type: 'tool-call-start', tool: 'lookup', toolCallId: 'call-1', arguments: { q: 'x', password: '[REDACTED]' }, ...correlation },
      {
        type: 'tool-call-end',
        tool: 'lookup',
        toolCallId: 'call-1',
        arguments: { q: 'x', password: '[REDACTED]' },
        ...correlation,
        durationMs: 10,
        success: true,
        outcome: 'executed',
        result: 'found x; api_key=[REDACTED]',
      },
      { type: 'tool-call-start', tool: 'fail', toolCallId: 'call-2', arguments: {}, ...correlation },
      { type: 'tool-call-end', tool: 'fail', toolCallId: 'call-2', arguments: {}, ...correlation, durationMs: 10, success: false, outcome: 'failed', result: 'Error: no luck' },
      { type: 'tool-call-start', tool: 'ghost', toolCallId: 'call-3', arguments: { a: 1 }, ...correlation },
      {
        type: 'tool-call-end',
        tool: 'ghost',
        toolCallId: 'call-3',
        arguments: { a: 1 },
        ...correlation,
        durationMs: 0,
        success: false,
        outcome: 'unknown',
        result: 'Unknown tool: ghost',
      },
    ]);
  });

  it('without an ingress: channel cli, the agent name as alias, a generated turn id', async () => {
    const events = await run();
    expect(events[0]).toEqual({
      type: 'tool-call-start',
      tool: 'lookup',
      toolCallId: 'call-1',
      arguments: { q: 'x', password: '[REDACTED]' },
      channel: 'cli',
      agentAlias: 'helper',
      parentAgentAlias: undefined,
      turnId: 'generated-id',
    });
    expect(new Set(events.map((e) => e.turnId))).toEqual(new Set(['generated-id']));
  });
});

describe('an observer that throws is logged and ignored', () => {
  it('the turn and the other observers carry on', async () => {
    const events = await run({ channel: 'web' }, [
      () => {
        throw new Error('observer broke');
      },
    ]);
    expect(events.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-end', 'tool-call-start', 'tool-call-end', 'tool-call-start', 'tool-call-end']);
  });

  it('the failure goes to the logger as a warning', async () => {
    const warnings: string[] = [];
    const logger: Logger = { debug: () => {}, info: () => {}, error: () => {}, warn: (_o, msg) => void warnings.push(msg ?? '') };
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ name: 'fail', arguments: {} }] }, { text: 'ok' }]),
      model: 'm',
      tools: [fail],
      logger,
      observers: [
        () => {
          throw new Error('observer broke');
        },
      ],
    });
    await agent.complete({ message: 'go' });
    expect(warnings.filter((w) => w.includes('observer'))).toHaveLength(2);
  });
});
