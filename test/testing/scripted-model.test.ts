import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type ChatMessage } from '../../src/index.js';
import { scriptedModel, scriptPositions } from '../../src/testing/index.js';

/** Yields to the event loop until `ready()` holds (a bounded number of turns, no timers). */
async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ready(); i++) await new Promise<void>((resolve) => setImmediate(resolve));
  expect(ready()).toBe(true);
}

/** A tool whose calls all wait until `release()`. */
function gatedTool() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const tool = defineTool({
    name: 'wait',
    description: 'waits',
    parameters: z.object({}),
    execute: async () => {
      await gate;
      return 'waited';
    },
  });
  return { tool, release };
}

const script = [{ toolCalls: [{ name: 'wait', arguments: {} }] }, { text: 'answer' }];

describe('scriptedModel: each conversation has its own place in the script', () => {
  it('two turns running at the same time each run the whole script (neither takes the other\'s steps)', async () => {
    const { tool, release } = gatedTool();
    const model = scriptedModel(script);
    const agent = createAgent({ provider: model, model: 'm', tools: [tool] });
    const a = agent.complete({ message: 'a' });
    const b = agent.complete({ message: 'b' });
    await until(() => model.requests.length === 2);
    release();
    const [outA, outB] = await Promise.all([a, b]);
    expect([outA.text, outB.text]).toEqual(['answer', 'answer']);
    expect(model.requests).toHaveLength(4);
  });

  it('a turn that continues a conversation (history: done.history) picks up where the last one stopped', async () => {
    const model = scriptedModel([{ text: 'first' }, { text: 'second' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [] });
    const one = await agent.complete({ message: 'one' });
    const two = await agent.complete({ message: 'two', history: one.history });
    expect([one.text, two.text]).toEqual(['first', 'second']);
  });

  it('a turn without history is a new conversation and starts at step 0 again', async () => {
    const model = scriptedModel([{ text: 'first' }, { text: 'second' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [] });
    await agent.complete({ message: 'one' });
    expect((await agent.complete({ message: 'two' })).text).toBe('first');
  });

  it('a history seeded with earlier answers starts at step 0', async () => {
    const model = scriptedModel([{ text: 'first' }]);
    const history: ChatMessage[] = [
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'yes' },
    ];
    const out = await lastValueFrom(createAgent({ provider: model, model: 'm', tools: [] }).run({ message: 'now', history }));
    expect(out).toMatchObject({ type: 'done', text: 'first' });
  });

  it('the function form gets the same per-conversation index', async () => {
    const seen: number[] = [];
    const { tool, release } = gatedTool();
    const model = scriptedModel((_req, n) => (seen.push(n), script[n]));
    const agent = createAgent({ provider: model, model: 'm', tools: [tool] });
    const both = Promise.all([agent.complete({ message: 'a' }), agent.complete({ message: 'b' })]);
    await until(() => model.requests.length === 2);
    release();
    await both;
    expect(seen).toEqual([0, 0, 1, 1]);
  });

  it('scriptPositions: assistant messages beyond those the conversation started with', () => {
    const position = scriptPositions();
    const opening: ChatMessage = { role: 'user', content: 'hi' };
    const answer: ChatMessage = { role: 'assistant', content: 'a' };
    expect(position({ model: 'm', messages: [{ role: 'system', content: 's' }, opening, answer] })).toBe(0);
    expect(position({ model: 'm', messages: [opening, answer, answer, { role: 'user', content: 'more' }] })).toBe(1);
    expect(position({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).toBe(0);
  });
});
