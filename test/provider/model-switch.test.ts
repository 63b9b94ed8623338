import { describe, expect, it } from 'vitest';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { createAgent, defineTool, openAIChatProvider, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { startOpenAIServer } from '../fixtures/openai-server.js';
import { clientFor } from './helpers.js';

const escalate = defineTool({
  name: 'escalate',
  description: 'Switch to another model',
  parameters: z.object({ model: z.string() }),
  execute: ({ model }, ctx) => {
    ctx.switchModel(model);
    return `now on ${model}`;
  },
});

const escalating = (model: string) => [{ toolCalls: [{ id: 'e1', name: 'escalate', arguments: { model } }] }, { text: 'answered' }];

describe('A tool can switch the model mid-turn', () => {
  it('onModelSwitch(from, to) is called and the next request uses the new model', async () => {
    const switches: [string, string][] = [];
    const model = scriptedModel(escalating('large'));
    const agent = createAgent({ provider: model, model: 'small', tools: [escalate], onModelSwitch: (from, to) => switches.push([from, to]) });
    await agent.complete({ message: 'hard question' });
    expect(model.requests.map((r) => r.model)).toEqual(['small', 'large']);
    expect(switches).toEqual([['small', 'large']]);
  });

  it('the switch lasts for the rest of the turn; the next turn starts on the agent model', async () => {
    const model = scriptedModel([...escalating('large'), { text: 'second turn' }]);
    const agent = createAgent({ provider: model, model: 'small', tools: [escalate] });
    const first = await agent.complete({ message: 'one' });
    await agent.complete({ message: 'two', history: first.history });
    expect(model.requests.map((r) => r.model)).toEqual(['small', 'large', 'small']);
  });

  it('switching to the current model does nothing', async () => {
    const switches: string[] = [];
    const agent = createAgent({
      provider: scriptedModel(escalating('small')),
      model: 'small',
      tools: [escalate],
      onModelSwitch: (from, to) => switches.push(`${from}->${to}`),
    });
    await agent.complete({ message: 'x' });
    expect(switches).toEqual([]);
  });

  it('a blank model name fails the call with a clear error and keeps the model', async () => {
    const model = scriptedModel(escalating('  '));
    const events = await lastValueFrom(createAgent({ provider: model, model: 'small', tools: [escalate] }).run({ message: 'x' }).pipe(toArray()));
    const result = events.find((e) => e.type === 'tool-result') as Extract<TurnEvent, { type: 'tool-result' }>;
    expect(result).toMatchObject({ outcome: 'failed', success: false });
    expect(result.output).toBe('Error executing escalate: switchModel needs a non-empty model name.');
    expect(model.requests.map((r) => r.model)).toEqual(['small', 'small']);
  });

  it('over a real server, the next request body names the new model', async () => {
    const server = await startOpenAIServer([
      { kind: 'reply', toolCalls: [{ id: 'e1', name: 'escalate', arguments: '{"model":"gpt-large"}' }] },
      { kind: 'reply', text: 'done' },
    ]);
    try {
      await createAgent({ provider: openAIChatProvider(clientFor(server)), model: 'gpt-small', tools: [escalate] }).complete({ message: 'x' });
      expect(server.requests.map((r) => r.body.model)).toEqual(['gpt-small', 'gpt-large']);
    } finally {
      await server.close();
    }
  });
});

describe('A hook can switch the model mid-turn', () => {
  const echo = defineTool({ name: 'echo', description: '', parameters: z.object({}), execute: () => 'ok' });
  const script = () => scriptedModel([{ toolCalls: [{ id: 'a', name: 'echo', arguments: {} }] }, { text: 'done' }]);

  it('a beforeToolCall hook switches the next request to the new model', async () => {
    const model = script();
    const switches: [string, string][] = [];
    const agent = createAgent({
      provider: model,
      model: 'small',
      tools: [echo],
      hooks: { beforeToolCall: [(call) => call.switchModel('large')] },
      onModelSwitch: (from, to) => switches.push([from, to]),
    });
    await agent.complete({ message: 'x' });
    expect(model.requests.map((r) => r.model)).toEqual(['small', 'large']);
    expect(switches).toEqual([['small', 'large']]);
  });

  it('an afterToolCall hook switches the next request to the new model', async () => {
    const model = script();
    const agent = createAgent({ provider: model, model: 'small', tools: [echo], hooks: { afterToolCall: [(call) => call.switchModel('large')] } });
    await agent.complete({ message: 'x' });
    expect(model.requests.map((r) => r.model)).toEqual(['small', 'large']);
  });
});
