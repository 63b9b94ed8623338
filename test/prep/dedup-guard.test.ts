import { describe, expect, it } from 'vitest';
import { createAgent, type KnobsInput } from '../../src/index.js';
import { fakeTool, scriptedModel, type ScriptedStep } from '../../src/testing/index.js';
import { outcomes, runTurn } from './harness.js';

const DUP = "Skipped duplicate call to 'read' with identical arguments.";

async function run(steps: ScriptedStep[], knobs?: KnobsInput, exempt = false) {
  const read = fakeTool('read', (a) => `read ${JSON.stringify(a)}`, { dedupExempt: exempt });
  const other = fakeTool('other', 'o');
  const agent = createAgent({ provider: scriptedModel(steps), model: 'm', tools: [read, other], knobs });
  return { read, ...(await runTurn(agent)) };
}

const call = (args: Record<string, unknown>, name = 'read') => ({ name, arguments: args });

describe("dedup guard: the same name and arguments (sorted keys) in the same iteration → deduplicated, text \"Skipped duplicate call to '{tool}' with identical arguments.\"", () => {
  it('an identical second call is deduplicated and not run', async () => {
    const { read, events } = await run([{ toolCalls: [call({ p: 'a' }), call({ p: 'a' })] }, { text: 'ok' }]);
    expect(read.calls).toHaveLength(1);
    expect(outcomes(events)).toEqual([
      ['read', 'executed', true, 'read {"p":"a"}'],
      ['read', 'deduplicated', false, DUP],
    ]);
  });

  it('key order does not matter, at any depth', async () => {
    const { read, events } = await run([
      { toolCalls: [call({ a: 1, b: { x: 1, y: [1, { m: 1, n: 2 }] } }), call({ b: { y: [1, { n: 2, m: 1 }], x: 1 }, a: 1 })] },
      { text: 'ok' },
    ]);
    expect(read.calls).toHaveLength(1);
    expect(outcomes(events)[1][1]).toBe('deduplicated');
  });

  it('different arguments, or a different tool with the same arguments, are not duplicates', async () => {
    const { read, events } = await run([{ toolCalls: [call({ p: 'a' }), call({ p: 'b' }), call({ p: 'a' }, 'other')] }, { text: 'ok' }]);
    expect(read.calls).toHaveLength(2);
    expect(outcomes(events).map((o) => o[1])).toEqual(['executed', 'executed', 'executed']);
  });

  it('arguments compare as JSON: an undefined value is the same as a missing key', async () => {
    const { read } = await run([{ toolCalls: [call({ p: 'a' }), call({ p: 'a' })] }, { text: 'ok' }]);
    expect(read.calls).toHaveLength(1);
    const { callSignature } = await import('../../src/prep/call-signature.js');
    expect(callSignature('read', { b: 2, a: 1, c: undefined })).toBe(callSignature('read', { a: 1, b: 2 }));
    expect(callSignature('read', { a: { y: 1, x: [2] } })).toBe('read\u0000{"a":{"x":[2],"y":1}}');
    expect(callSignature('read', { b: 'x"y', a: null })).toBe('read\u0000{"a":null,"b":"x\\"y"}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(callSignature('read', cyclic)).toBeUndefined();
  });

  it('array order matters', async () => {
    const { read } = await run([{ toolCalls: [call({ p: [1, 2] }), call({ p: [2, 1] })] }, { text: 'ok' }]);
    expect(read.calls).toHaveLength(2);
  });

  it('the guard is per iteration: the same call in the next iteration runs again', async () => {
    const { read } = await run([{ toolCalls: [call({ p: 'a' })] }, { toolCalls: [call({ p: 'a' })] }, { text: 'ok' }]);
    expect(read.calls).toHaveLength(2);
  });

  it('a third identical call is deduplicated too', async () => {
    const { events } = await run([{ toolCalls: [call({ p: 'a' }), call({ p: 'b' }), call({ p: 'a' }), call({ p: 'b' })] }, { text: 'ok' }]);
    expect(outcomes(events).map((o) => o[1])).toEqual(['executed', 'executed', 'deduplicated', 'deduplicated']);
  });
});

describe('dedup guard: exempt tools always run; the guard runs only when dedupEnabled', () => {
  it('a tool listed in dedupExemptTools always runs', async () => {
    const { read } = await run([{ toolCalls: [call({ p: 'a' }), call({ p: 'a' })] }, { text: 'ok' }], { dedupExemptTools: ['read'] });
    expect(read.calls).toHaveLength(2);
  });

  it('a tool defined with dedupExempt: true always runs', async () => {
    const { read } = await run([{ toolCalls: [call({ p: 'a' }), call({ p: 'a' })] }, { text: 'ok' }], undefined, true);
    expect(read.calls).toHaveLength(2);
  });

  it('dedupEnabled: false runs every call', async () => {
    const { read } = await run([{ toolCalls: [call({ p: 'a' }), call({ p: 'a' })] }, { text: 'ok' }], { dedupEnabled: false });
    expect(read.calls).toHaveLength(2);
  });
});
