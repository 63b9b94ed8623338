import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AfterToolCallHook, type Logger } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

const add = defineTool({ name: 'add', description: 'adds', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => String(a + b) });
const boom = defineTool({
  name: 'boom',
  description: 'throws',
  parameters: z.object({}),
  execute: () => {
    throw new Error('kaput');
  },
});
const batch = () =>
  scriptedModel([
    {
      toolCalls: [
        { id: 'c1', name: 'add', arguments: { a: 1, b: 2 } },
        { id: 'c2', name: 'boom', arguments: {} },
        { id: 'c3', name: 'missing', arguments: {} },
        { id: 'c4', name: 'add', arguments: { a: 'x' } },
      ],
    },
    { text: 'done' },
  ]);

function recordingLogger() {
  const warnings: { obj: Record<string, unknown>; msg?: string }[] = [];
  const logger: Logger = { debug: () => {}, info: () => {}, error: () => {}, warn: (obj, msg) => warnings.push({ obj: obj as Record<string, unknown>, msg }) };
  return { logger, warnings };
}

describe('afterToolCall hooks run for executed calls only', () => {
  it('a hook sees each executed call (successful or failed) with its result and duration, and no filled slot', async () => {
    const seen: unknown[] = [];
    const hook: AfterToolCallHook = (call, result) => {
      seen.push({ id: call.id, name: call.name, args: call.args, slot: call.slot, iteration: call.iteration, channel: call.ingress.channel, ...result });
    };
    let t = 0;
    const agent = createAgent({ provider: batch(), model: 'm', tools: [add, boom], hooks: { afterToolCall: [hook] }, clock: { now: () => (t += 5) } });
    await agent.complete({ message: 'go', ingress: { channel: 'slack' } });
    expect(seen).toEqual([
      { id: 'c1', name: 'add', args: { a: 1, b: 2 }, slot: 0, iteration: 1, channel: 'slack', success: true, output: '3', error: undefined, data: undefined, durationMs: 5 },
      {
        id: 'c2',
        name: 'boom',
        args: {},
        slot: 1,
        iteration: 1,
        channel: 'slack',
        success: false,
        output: 'Error executing boom: kaput',
        error: 'kaput',
        data: undefined,
        durationMs: 5,
      },
    ]);
  });
});

describe('a hook that throws or rejects is logged and ignored', () => {
  it('a throwing hook neither changes the result nor stops the hooks after it', async () => {
    const { logger, warnings } = recordingLogger();
    const later: string[] = [];
    const agent = createAgent({
      provider: batch(),
      model: 'm',
      tools: [add, boom],
      logger,
      hooks: {
        afterToolCall: [
          () => {
            throw new Error('hook broke');
          },
          (call) => void later.push(call.id),
        ],
      },
    });
    const out = await agent.complete({ message: 'go' });
    expect(out.text).toBe('done');
    expect(out.history.find((m) => m.role === 'tool')).toEqual({ role: 'tool', tool_call_id: 'c1', content: '3' });
    expect(later).toEqual(['c1', 'c2']);
    const hookWarnings = warnings.filter((w) => w.msg === 'afterToolCall hook failed; ignored');
    expect(hookWarnings.map((w) => w.obj.toolCallId)).toEqual(['c1', 'c2']);
    expect((hookWarnings[0].obj.err as { message: string }).message).toBe('hook broke');
  });

  it('a rejecting hook is logged once it rejects, without an unhandled rejection', async () => {
    const { logger, warnings } = recordingLogger();
    let logged!: () => void;
    const loggedOnce = new Promise<void>((resolve) => (logged = resolve));
    const wrapped: Logger = { ...logger, warn: (obj, msg) => (logger.warn(obj, msg), logged()) };
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 2, b: 2 } }] }, { text: 'four' }]),
      model: 'm',
      tools: [add],
      logger: wrapped,
      hooks: { afterToolCall: [async () => Promise.reject(new Error('async hook broke'))] },
    });
    const out = await agent.complete({ message: 'go' });
    await loggedOnce;
    expect(out.text).toBe('four');
    const hookWarning = warnings.find((w) => w.msg === 'afterToolCall hook failed; ignored');
    expect((hookWarning?.obj.err as { message: string }).message).toBe('async hook broke');
  });
});
