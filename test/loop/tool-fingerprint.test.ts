import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool } from '../../src/index.js';
import { toolFingerprint } from '../../src/operators.js';
import { deepFreeze, isDeeplyFrozen } from '../../src/tool/deep-freeze.js';

const schema = () => ({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });

/** A tool made by hand, as a user may: its spec is neither frozen nor deep-frozen. */
function handMade(parameters: Record<string, unknown>, name = 'read'): Tool {
  const defined = defineTool({ name, description: 'Reads.', parameters: z.object({ path: z.string() }), execute: () => 'x' });
  const spec = { name, description: 'Reads.', parameters };
  return { ...defined, spec, openAI: { type: 'function', function: spec } } as unknown as Tool;
}

describe('a tool fingerprint', () => {
  it("is the same for equal schemas, whether the tool's spec is frozen (remembered) or not (made each time)", () => {
    const defined = defineTool({ name: 'read', description: 'Reads.', parameters: z.object({ path: z.string() }), execute: () => 'x' });
    const byHand = handMade(JSON.parse(JSON.stringify(defined.spec.parameters)) as Record<string, unknown>);
    expect(toolFingerprint(defined)).toMatch(/^sha256:[0-9a-f]{32}$/);
    expect(toolFingerprint(defined)).toBe(toolFingerprint(defined));
    expect(toolFingerprint(byHand)).toBe(toolFingerprint(defined));
  });

  it('follows a schema that can change: a hand-made tool whose parameters are changed in place', () => {
    const parameters = schema();
    const tool = handMade(parameters);
    const before = toolFingerprint(tool);
    (parameters.properties.path as Record<string, unknown>).type = 'number';
    expect(toolFingerprint(tool)).not.toBe(before);
    // frozen on top but not below: still followed
    const shallow = schema();
    const frozenOnTop = handMade(Object.freeze(shallow));
    const first = toolFingerprint(frozenOnTop);
    shallow.required.push('mode');
    expect(toolFingerprint(frozenOnTop)).not.toBe(first);
  });

  it('names the tool: the same schema under another name is another fingerprint', () => {
    const parameters = deepFreeze(schema());
    expect(toolFingerprint(handMade(parameters, 'read'))).not.toBe(toolFingerprint(handMade(parameters, 'write')));
  });
});

describe('deepFreeze', () => {
  it('freezes everything an object reaches, parts frozen before included, and cycles end', () => {
    const inner = { list: [1, { deep: true }] };
    const outer: Record<string, unknown> = { a: Object.freeze({ inner }) };
    outer.self = outer;
    deepFreeze(outer);
    expect(Object.isFrozen(inner)).toBe(true);
    expect(Object.isFrozen(inner.list[1])).toBe(true);
    expect(isDeeplyFrozen(outer)).toBe(true);
    expect(isDeeplyFrozen(Object.freeze({ b: {} }))).toBe(false);
  });
});
