import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, delegateTool, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { eventCode, fakeTool, scriptedModel } from '../../src/testing/index.js';

const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });
const events = (agent: ReturnType<typeof createAgent>, message = 'go', conversationId?: string) =>
  lastValueFrom(agent.run({ message, ...(conversationId ? { conversationId } : {}) }).pipe(toArray()));
const doneOf = (all: TurnEvent[]) => all.at(-1) as TurnEventOf<'done'>;
const nested = (all: TurnEvent[]) => all.filter((e): e is TurnEventOf<'delegate'> => e.type === 'delegate');

/** A child that reads a file, then answers; a parent that delegates to it, then answers. */
function family(options: { childUsage?: boolean } = {}) {
  const read = fakeTool('read_file', 'contents of notes.txt', { risk: 'read' });
  const childModel = scriptedModel([
    { toolCalls: [call('c1', 'read_file', { path: 'notes.txt' })], ...(options.childUsage ? { usage: { inputTokens: 10, outputTokens: 2 } } : {}) },
    { text: 'The notes say hello.', ...(options.childUsage ? { usage: { inputTokens: 20, outputTokens: 5 } } : {}) },
  ]);
  const child = createAgent({ name: 'reader', provider: childModel, model: 'm', tools: [read] });
  const ask = delegateTool({ agent: child, name: 'ask_reader', description: 'Asks the reader agent.', risk: 'read' });
  const parentModel = scriptedModel([
    { toolCalls: [call('p1', 'ask_reader', { task: 'What do the notes say?' })], usage: { inputTokens: 100, outputTokens: 7 } },
    { text: 'They say hello.', usage: { inputTokens: 200, outputTokens: 9 } },
  ]);
  const parent = createAgent({ name: 'lead', provider: parentModel, model: 'm', tools: [ask] });
  return { read, childModel, parentModel, parent };
}

describe("the child's events reach the parent's stream, nested under the parent call's id", () => {
  it("between the call's tool-call and tool-result, in the child's order, without the child's done", async () => {
    const { parent, childModel } = family();
    const all = await events(parent);
    expect(all.map(eventCode)).toEqual([
      'iteration 1',
      'usage',
      'call ask_reader',
      'reader> iteration 1',
      'reader> call read_file',
      'reader> read_file executed',
      'reader> iteration 2',
      'reader> text The notes say hello.',
      'ask_reader executed',
      'iteration 2',
      'text They say hello.',
      'usage',
      'done final',
    ]);
    for (const event of nested(all)) expect(event).toMatchObject({ parentCallId: 'p1', agent: 'reader', iteration: 1 });
    expect(all.find((e) => e.type === 'tool-result')).toMatchObject({ id: 'p1', output: 'The notes say hello.', success: true });
    expect(childModel.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'What do the notes say?' });
  });

  it('a nested event is scrubbed like every rendered surface', async () => {
    const secret = 'sk-abcdefghijklmnopqrstuvwxyz012345';
    const echo = fakeTool('echo', (args) => String(args.text), { risk: 'read' });
    const childModel = scriptedModel([{ toolCalls: [call('c1', 'echo', { text: secret })] }, { text: `done ${secret}` }]);
    const child = createAgent({ name: 'c', provider: childModel, model: 'm', tools: [echo] });
    const parentModel = scriptedModel([{ toolCalls: [call('p1', 'delegate', { task: 'x' })] }, { text: 'ok' }]);
    const parent = createAgent({ provider: parentModel, model: 'm', tools: [delegateTool({ agent: child, name: 'delegate', description: 'd' })] });
    const all = await events(parent);
    expect(nested(all).length).toBeGreaterThan(3);
    expect(JSON.stringify(all.filter((e) => e.type !== 'done'))).not.toContain(secret);
  });

  it('a grandchild comes nested twice, under the child call that runs it', async () => {
    const leafModel = scriptedModel([{ text: 'leaf says hi' }]);
    const leaf = createAgent({ name: 'leaf', provider: leafModel, model: 'm', tools: [] });
    const midModel = scriptedModel([{ toolCalls: [call('m1', 'ask_leaf', { task: 'hi?' })] }, { text: 'mid done' }]);
    const mid = createAgent({ name: 'mid', provider: midModel, model: 'm', tools: [delegateTool({ agent: leaf, name: 'ask_leaf', description: 'l' })] });
    const topModel = scriptedModel([{ toolCalls: [call('t1', 'ask_mid', { task: 'go' })] }, { text: 'top done' }]);
    const top = createAgent({ name: 'top', provider: topModel, model: 'm', tools: [delegateTool({ agent: mid, name: 'ask_mid', description: 'm' })] });
    const all = await events(top);
    const text = nested(all).find((e) => e.event.type === 'delegate');
    expect(text).toMatchObject({ parentCallId: 't1', agent: 'mid', event: { type: 'delegate', parentCallId: 'm1', agent: 'leaf' } });
    expect(all.map(eventCode)).toContain('mid> leaf> text leaf says hi');
  });

  it("a child's failure fails the call, with the child's error", async () => {
    const child = createAgent({ name: 'broken', provider: scriptedModel([]), model: 'm', tools: [] });
    const parentModel = scriptedModel([{ toolCalls: [call('p1', 'ask', { task: 'x' })] }, { text: 'ok' }]);
    const parent = createAgent({ provider: parentModel, model: 'm', tools: [delegateTool({ agent: child, name: 'ask', description: 'd' })] });
    const result = (await events(parent)).find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({ outcome: 'failed', success: false });
    expect((result as TurnEventOf<'tool-result'>).output).toMatch(/^Error executing ask: .*no step 1/);
  });

  it('parameters and message shape what the child is asked', async () => {
    const childModel = scriptedModel([{ text: 'fine' }]);
    const child = createAgent({ provider: childModel, model: 'm', tools: [] });
    const tool = delegateTool({
      agent: child,
      name: 'review',
      description: 'Reviews a file.',
      parameters: z.object({ path: z.string(), focus: z.string() }),
      message: ({ path, focus }) => `Review ${path} for ${focus}.`,
    });
    const parent = createAgent({ provider: scriptedModel([{ toolCalls: [call('p1', 'review', { path: 'a.ts', focus: 'bugs' })] }, { text: 'ok' }]), model: 'm', tools: [tool] });
    await events(parent);
    expect(childModel.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'Review a.ts for bugs.' });
  });
});

describe("the child's usage counts into the parent's done.usage", () => {
  it("the parent's requests plus every request of the child", async () => {
    const { parent } = family({ childUsage: true });
    const all = await events(parent);
    expect(doneOf(all).usage).toEqual({ inputTokens: 100 + 200 + 10 + 20, outputTokens: 7 + 9 + 2 + 5 });
    expect(nested(all).filter((e) => e.event.type === 'usage')).toHaveLength(2);
  });

  it('complete() counts them too, on an agent whose events nobody reads', async () => {
    const { parent } = family({ childUsage: true });
    const outcome = await parent.complete({ message: 'go' });
    expect(outcome.usage).toEqual({ inputTokens: 330, outputTokens: 23 });
    expect(outcome.text).toBe('They say hello.');
  });
});
