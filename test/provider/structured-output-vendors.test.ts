import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkProvider, anthropicProvider, createAgent, openAIResponsesProvider, type TurnEvent } from '../../src/index.js';
import { fakeTool } from '../../src/testing/index.js';
import { startAnthropicServer } from '../fixtures/anthropic-server.js';
import { startOpenAIServer } from '../fixtures/openai-server.js';
import { startResponsesServer } from '../fixtures/responses-server.js';
import { MODELS } from './ai-sdk-models.js';
import { anthropicFor } from './anthropic-helpers.js';
import { responsesClient } from './responses-helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const Weather = z.object({ city: z.string(), celsius: z.number() });

describe('Anthropic: structured output through a forced answer tool', () => {
  it('the answer tool is offered and forced; its streamed input is the answer (text deltas, no call), validated as done.object', async () => {
    const server = await startAnthropicServer([{ kind: 'reply', content: [{ type: 'tool_use', id: 'toolu_a', name: 'output', input: ['{"city":"Os', 'lo","celsius":21}'] }] }]);
    closers.push(() => server.close());
    const events: TurnEvent[] = [];
    const agent = createAgent({ provider: anthropicProvider(anthropicFor(server)), model: 'claude', tools: [] });
    const done = await new Promise<TurnEvent>((resolve, reject) =>
      agent.run({ message: 'Weather in Oslo?', output: Weather }).subscribe({ next: (e) => (events.push(e), e.type === 'done' && resolve(e)), error: reject }),
    );
    expect(done).toMatchObject({ reason: 'final', object: { city: 'Oslo', celsius: 21 } });
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual(['{"city":"Os', 'lo","celsius":21}']);
    expect(events.some((e) => e.type === 'tool-call' || e.type === 'tool-call-delta')).toBe(false);
    const body = server.requests[0].body;
    expect(body.tools).toEqual([{ name: 'output', description: expect.stringContaining('final answer'), input_schema: expect.objectContaining({ type: 'object' }) }]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'output' });
  });

  it('with other tools the model must call one of them or the answer tool (tool_choice any); thinking leaves the choice to the model', async () => {
    const server = await startAnthropicServer(() => ({ kind: 'reply', content: [{ type: 'tool_use', id: 'toolu_a', name: 'output', input: '{"city":"Oslo","celsius":3}' }] }));
    closers.push(() => server.close());
    const withTools = createAgent({ provider: anthropicProvider(anthropicFor(server)), model: 'claude', tools: [fakeTool('lookup', 'x')] });
    expect((await withTools.complete({ message: 'go', output: Weather })).object).toEqual({ city: 'Oslo', celsius: 3 });
    expect(server.requests[0].body.tool_choice).toEqual({ type: 'any' });
    expect(server.requests[0].body.tools.map((t: { name: string }) => t.name)).toEqual(['lookup', 'output']);
    const thinking = anthropicProvider(anthropicFor(server), { params: { thinking: { type: 'enabled', budget_tokens: 1024 } } });
    await createAgent({ provider: thinking, model: 'claude', tools: [] }).complete({ message: 'go', output: Weather });
    expect(server.requests[1].body.tool_choice).toBeUndefined();
  });
});

describe('OpenAI Responses and AI SDK models ask their APIs for the format', () => {
  it('Responses: text.format json_schema with the schema, keeping other text options', async () => {
    const server = await startResponsesServer([{ kind: 'reply', text: '{"city":"Oslo","celsius":21}' }]);
    closers.push(() => server.close());
    const provider = openAIResponsesProvider(responsesClient(server), { params: { text: { verbosity: 'low' } } });
    const done = await createAgent({ provider, model: 'gpt', tools: [] }).complete({ message: 'go', output: Weather });
    expect(done.object).toEqual({ city: 'Oslo', celsius: 21 });
    expect(server.requests[0].body.text).toEqual({
      verbosity: 'low',
      format: { type: 'json_schema', name: 'output', schema: expect.objectContaining({ type: 'object' }), strict: false },
    });
  });

  for (const kind of MODELS) {
    it(`AI SDK (${kind.label}): the model gets responseFormat json and sends the server a JSON response format`, async () => {
      const server = await startOpenAIServer([{ kind: 'reply', text: '{"city":"Oslo","celsius":21}' }]);
      closers.push(() => server.close());
      const done = await createAgent({ provider: aiSdkProvider(kind.on(server)), model: 'fixture-model', tools: [] }).complete({ message: 'go', output: Weather });
      expect(done.object).toEqual({ city: 'Oslo', celsius: 21 });
      expect(server.requests[0].body.response_format).toMatchObject({ type: expect.stringMatching(/^json_(object|schema)$/) });
    });
  }
});
