import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

describe('a whole turn', () => {
  it('runs tools and appends results to history in slot order', async () => {
    const add = defineTool({
      name: 'add',
      description: 'adds',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }) => String(a + b),
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 1, b: 2 } }, { id: 'c2', name: 'nope', arguments: {} }, { id: 'c3', name: 'add', arguments: '{"a":1}' }] },
      { text: 'done' },
    ]);
    const agent = createAgent({ provider: model, model: 'm', tools: [add], knobs: { parallelTools: true } });
    const out = await agent.complete({ message: 'hi' });
    expect(out.text).toBe('done');
    expect(out.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
    expect(out.history[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '3' });
    expect(out.history[3]).toEqual({ role: 'tool', tool_call_id: 'c2', content: 'Unknown tool: nope' });
    expect((out.history[4] as { content: string }).content).toMatch(/^Error: invalid arguments for add/);
    console.log((out.history[4] as { content: string }).content);
  });
});
