import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, parseTextToolCalls, type ChatMessage, type Logger } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { collect, doneOf, ofType } from './helpers.js';

const echo = defineTool({ name: 'echo', description: '', parameters: z.looseObject({}), execute: (args) => JSON.stringify(args) });

describe('Parsing: every tool message of history answers exactly one call', () => {
  it('a provider id repeated within a batch is replaced by a generated id for the later slots', async () => {
    let n = 0;
    const agent = createAgent({
      provider: scriptedModel([
        { toolCalls: [{ id: 'dup', name: 'echo', arguments: { a: 1 } }, { id: 'dup', name: 'echo', arguments: { a: 2 } }] },
        { text: 'ok' },
      ]),
      model: 'm',
      tools: [echo],
      ids: () => `gen-${++n}`,
    });
    const events = await collect(agent, { message: 'x' });
    const history = doneOf(events).history;
    const assistant = history[1] as Extract<ChatMessage, { role: 'assistant' }>;
    const callIds = assistant.tool_calls?.map((c) => c.id);
    expect(callIds).toHaveLength(2);
    expect(new Set(callIds).size).toBe(2);
    expect(callIds?.[0]).toBe('dup');
    expect(history.filter((m) => m.role === 'tool').map((m) => (m as { tool_call_id: string }).tool_call_id)).toEqual(callIds);
    expect(ofType(events, 'tool-result').map((e) => e.id)).toEqual(callIds);
  });

  it('a call without a string name from a custom provider ends unknown instead of failing the turn', async () => {
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 'a', name: undefined as unknown as string, arguments: {} }] }, { text: 'ok' }]),
      model: 'm',
      tools: [echo],
    });
    const events = await collect(agent, { message: 'x' });
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ outcome: 'unknown', output: 'Unknown tool: ' });
    expect(doneOf(events).text).toBe('ok');
  });

  it('arguments that cannot be written as JSON end invalid-arguments instead of failing the turn', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 'a', name: 'echo', arguments: circular }] }, { text: 'ok' }]),
      model: 'm',
      tools: [echo],
    });
    const events = await collect(agent, { message: 'x' });
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ outcome: 'invalid-arguments' });
    expect(ofType(events, 'tool-result')[0].output).toMatch(/cannot be written as JSON/);
  });

  it('a text-protocol parameter named __proto__ stays a plain own key and changes no prototype', () => {
    const [call] = parseTextToolCalls('<invoke name="echo"><parameter name="__proto__">{"approved": true}</parameter></invoke>', ['echo']);
    expect(Object.getPrototypeOf(call.arguments)).toBe(Object.prototype);
    expect(Object.keys(call.arguments)).toEqual(['__proto__']);
    expect((call.arguments as { approved?: unknown }).approved).toBeUndefined();
  });
});

describe('A logger that throws never fails a turn', () => {
  it('observers and hooks that throw are still ignored when logging their failure throws too', async () => {
    const throwing: Logger = {
      debug: () => {
        throw new Error('log down');
      },
      info: () => {
        throw new Error('log down');
      },
      warn: () => {
        throw new Error('log down');
      },
      error: () => {
        throw new Error('log down');
      },
    };
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 'a', name: 'echo', arguments: {} }] }, { text: 'ok' }]),
      model: 'm',
      tools: [echo],
      logger: throwing,
      observers: [
        () => {
          throw new Error('observer down');
        },
      ],
      hooks: {
        afterToolCall: [
          () => {
            throw new Error('hook down');
          },
        ],
      },
    });
    const out = await agent.complete({ message: 'x' });
    expect(out.text).toBe('ok');
    expect(out.history.filter((m) => m.role === 'tool')).toEqual([{ role: 'tool', tool_call_id: 'a', content: '{}' }]);
  });
});
