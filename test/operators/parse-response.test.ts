import { describe, expect, it } from 'vitest';
import { parseResponse, toParsedCall } from '../../src/operators.js';
import { echo, setup } from './helpers.js';

const ids = () => 'generated';
const usage = { inputTokens: 0, outputTokens: 0 };

describe('toParsedCall: every provider call gets a slot, an id and object arguments', () => {
  it('keeps the provider id and decodes JSON text arguments', () => {
    expect(toParsedCall({ id: 'p1', name: 'x', arguments: '{"a":1}' }, 2, ids)).toEqual({
      slot: 2, id: 'p1', name: 'x', args: { a: 1 }, rawArguments: '{"a":1}',
    });
  });

  it('generates an id for a call without one (or with an empty one)', () => {
    expect(toParsedCall({ name: 'x', arguments: {} }, 0, ids).id).toBe('generated');
    expect(toParsedCall({ id: '', name: 'x', arguments: {} }, 0, ids).id).toBe('generated');
  });

  it('object arguments are kept and echoed back as compact JSON', () => {
    expect(toParsedCall({ id: 'p', name: 'x', arguments: { b: 'y' } }, 0, ids)).toMatchObject({ args: { b: 'y' }, rawArguments: '{"b":"y"}' });
  });

  it('blank text arguments are {} without a problem', () => {
    const call = toParsedCall({ id: 'p', name: 'x', arguments: '  ' }, 0, ids);
    expect(call.args).toEqual({});
    expect(call.argsError).toBeUndefined();
    // every kind of blank String.prototype.trim knows, and none at all
    for (const blank of ['', '\t\n\r ', '\u00a0', '\u3000\ufeff', '\u2028 \u2029', '\u1680\u200a']) {
      expect(toParsedCall({ id: 'p', name: 'x', arguments: blank }, 0, ids)).toMatchObject({ args: {}, rawArguments: '{}', argsError: undefined });
    }
    // text around an object is still parsed, whatever it starts with
    expect(toParsedCall({ id: 'p', name: 'x', arguments: '\n {"a":1} ' }, 0, ids)).toMatchObject({ args: { a: 1 } });
    expect(toParsedCall({ id: 'p', name: 'x', arguments: '\u00a1' }, 0, ids).argsError).toMatch(/not valid JSON/);
  });

  it('invalid JSON becomes {} and keeps the raw text and the parse problem', () => {
    const call = toParsedCall({ id: 'p', name: 'x', arguments: '{"a":' }, 0, ids);
    expect(call).toMatchObject({ args: {}, rawArguments: '{"a":' });
    expect(call.argsError).toMatch(/not valid JSON/);
  });

  it('JSON that is not an object becomes {} with a problem saying so', () => {
    const call = toParsedCall({ id: 'p', name: 'x', arguments: '[1,2]' }, 0, ids);
    expect(call.args).toEqual({});
    expect(call.argsError).toBe('the arguments must be a JSON object');
  });
});

describe('parseResponse: native calls get slots in the order the model wrote them', () => {
  it('numbers native calls 0..n-1 and marks them as not from text', () => {
    const { it: ctx } = setup({ tools: [echo()] });
    const response = {
      text: '',
      toolCalls: [{ id: 'a', name: 'echo', arguments: {} }, { name: 'echo', arguments: '{"v":"x"}' }],
      cancelled: false,
      usage,
    };
    const { calls, fromText, malformed } = parseResponse(ctx, response);
    expect(calls.map((c) => [c.slot, c.args])).toEqual([[0, {}], [1, { v: 'x' }]]);
    expect(calls[0].id).toBe('a');
    expect(calls[1].id).toMatch(/^gen-\d+$/);
    expect([fromText, malformed]).toEqual([false, false]);
  });

  it('a native provider that answers in text has no calls', () => {
    const { it: ctx } = setup({ tools: [echo()] });
    expect(parseResponse(ctx, { text: '<tool_call>{"name":"echo"}</tool_call>', toolCalls: [], cancelled: false, usage }).calls).toEqual([]);
  });
});
