import { afterEach, describe, expect, it } from 'vitest';
import { firstValueFrom } from 'rxjs';
import { aiSdkProvider, ConfigurationError, type AiSdkLanguageModel, type ToolSpec } from '../../src/index.js';
import { eventOffset, replySse, startOpenAIServer, type OpenAIServer, type ServerStep } from '../fixtures/openai-server.js';
import { eventsOf, summary, userRequest } from './helpers.js';
import { MODELS } from './ai-sdk-models.js';

let server: OpenAIServer | undefined;
const serve = async (script: readonly ServerStep[] | ((body: any, n: number) => ServerStep)) => (server = await startOpenAIServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather: ToolSpec = Object.freeze({
  name: 'weather',
  description: 'Current weather for a city',
  parameters: Object.freeze({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
});

describe.each(MODELS)('aiSdkProvider over the real $label (spec $spec)', ({ spec, on }) => {
  // spec v2 reports the AI SDK's own finish reason; v3 and v4 the server's word, as native providers do
  const toolCallsReason = spec === 'v2' ? 'tool-calls' : 'tool_calls';
  const stopReason = 'stop';

  describe('Provider request: the spec prompt, function tools, temperature and the options given', () => {
    it('sends the model, the messages, the tools as function entries, temperature, stream and include_usage', async () => {
      const s = await serve([{ kind: 'reply', text: 'ok' }]);
      await eventsOf(aiSdkProvider(on(s)), userRequest({ tools: [weather], temperature: 0.2 }));
      expect(s.requests[0].url).toBe('/v1/chat/completions');
      expect(s.requests[0].body).toEqual({
        model: 'fixture-model',
        temperature: 0.2,
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: weather }],
        stream: true,
        stream_options: { include_usage: true },
      });
    });

    it('sends no tools key when the request has none, and passes call options and provider options through', async () => {
      const s = await serve([{ kind: 'reply', text: 'ok' }]);
      const provider = aiSdkProvider(on(s), {
        callOptions: { maxOutputTokens: 50, seed: 7, headers: { 'x-trace': 'abc' } },
        providerOptions: { fixture: { user: 'u1' } },
      });
      await eventsOf(provider);
      const { body, headers } = s.requests[0];
      expect(body).toMatchObject({ max_tokens: 50, seed: 7, user: 'u1' });
      expect(body.tools).toBeUndefined();
      expect(headers['x-trace']).toBe('abc');
      expect(headers.authorization).toBe('Bearer test-key');
    });

    it('a request for another model id goes to modelFor’s model; without modelFor, to the model given', async () => {
      const s = await serve(() => ({ kind: 'reply', text: 'ok' }));
      await eventsOf(aiSdkProvider(on(s), { modelFor: (id) => on(s, 'test-key', id) }), userRequest({ model: 'large' }));
      await eventsOf(aiSdkProvider(on(s)), userRequest({ model: 'large' }));
      expect(s.requests.map((r) => r.body.model)).toEqual(['large', 'fixture-model']);
    });

    it('is named after the model’s provider id, and its telemetry name is the id’s GenAI name', async () => {
      const s = await serve([]);
      const provider = aiSdkProvider(on(s));
      expect(provider).toMatchObject({ name: 'fixture.chat', telemetryName: 'fixture', nativeTools: true });
      expect(aiSdkProvider(on(s), { name: 'local', telemetryName: 'deepseek' })).toMatchObject({ name: 'local', telemetryName: 'deepseek' });
    });
  });

  describe('Streaming: text as it arrives, tool calls split across deltas, several calls', () => {
    it('emits a text delta before the stream has ended', async () => {
      const step = { kind: 'reply', text: ['first ', 'second'] } as const;
      const s = await serve([{ ...step, stallAfterBytes: eventOffset(replySse(step), 'second') }]);
      const controller = new AbortController();
      const first = await firstValueFrom(aiSdkProvider(on(s)).request(userRequest(), controller.signal));
      expect(first).toEqual({ type: 'text-delta', text: 'first ' });
      expect(s.requests[0].closedByClient).toBe(false);
      controller.abort();
      await s.clientClosed(0);
    });

    it('assembles calls split across deltas, emits every fragment as a tool-call-delta first, then the calls, usage and finish', async () => {
      const s = await serve([
        {
          kind: 'reply',
          text: ['Checking ', 'both.'],
          toolCalls: [
            { id: 'call_1', name: 'weather', arguments: ['{"ci', 'ty":"Os', 'lo"}'] },
            { id: 'call_2', name: 'weather', arguments: ['{"city":', '"Rome"}'] },
          ],
          usage: { prompt_tokens: 81, completion_tokens: 37 },
        },
      ]);
      const events = await eventsOf(aiSdkProvider(on(s)), userRequest({ tools: [weather] }));
      expect(summary(events).text).toBe('Checking both.');
      expect(events.filter((e) => e.type !== 'text-delta')).toEqual([
        { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'weather', argumentsDelta: '{"ci' },
        { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'weather', argumentsDelta: 'ty":"Os' },
        { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'weather', argumentsDelta: 'lo"}' },
        { type: 'tool-call-delta', index: 1, id: 'call_2', name: 'weather', argumentsDelta: '{"city":' },
        { type: 'tool-call-delta', index: 1, id: 'call_2', name: 'weather', argumentsDelta: '"Rome"}' },
        { type: 'tool-call', id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
        { type: 'tool-call', id: 'call_2', name: 'weather', arguments: '{"city":"Rome"}' },
        { type: 'usage', inputTokens: 81, outputTokens: 37 },
        { type: 'finish', reason: toolCallsReason, responseId: 'chatcmpl-fixture', responseModel: 'fixture-model' },
      ]);
    });

    it('the same stream written one byte at a time gives the same events', async () => {
      const step = { kind: 'reply', text: 'Hi', toolCalls: [{ id: 'call_1', name: 'weather', arguments: ['{"city":', '"Oslo"}'] }] } as const;
      const s = await serve([step, { ...step, split: 'bytes' }]);
      const provider = aiSdkProvider(on(s));
      const whole = await eventsOf(provider, userRequest({ tools: [weather] }));
      expect(await eventsOf(provider, userRequest({ tools: [weather] }))).toEqual(whole);
      expect(whole.filter((e) => e.type === 'tool-call')).toEqual([{ type: 'tool-call', id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' }]);
    });

    it('reports a text answer’s finish reason, and no usage when the server sent none', async () => {
      const sse = 'data: {"id":"r1","model":"m-2","choices":[{"index":0,"delta":{"content":"done"},"finish_reason":null}]}\n\n' +
        'data: {"id":"r1","model":"m-2","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
      const s = await serve([{ kind: 'raw', sse }]);
      expect(await eventsOf(aiSdkProvider(on(s)))).toEqual([
        { type: 'text-delta', text: 'done' },
        { type: 'finish', reason: stopReason, responseId: 'r1', responseModel: 'm-2' },
      ]);
    });
  });

  describe('Reasoning blocks become reasoning events of the ai-sdk family', () => {
    it('one reasoning event per block, with the whole block’s text, before the finish', async () => {
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'r1', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const sse = chunk({ reasoning_content: 'Think ' }) + chunk({ reasoning_content: 'hard.' }) + chunk({ content: 'Answer.' }) + chunk({}, 'stop') + 'data: [DONE]\n\n';
      const s = await serve([{ kind: 'raw', sse }]);
      const events = await eventsOf(aiSdkProvider(on(s)));
      // the 1.x line closes a reasoning block at the stream's end, the newer ones when the text starts
      expect(events.filter((e) => e.type !== 'text-delta')).toEqual([
        { type: 'reasoning', part: { provider: 'ai-sdk', data: { text: 'Think hard.' } } },
        { type: 'finish', reason: 'stop', responseId: 'r1', responseModel: 'm' },
      ]);
      expect(summary(events).text).toBe('Answer.');
    });
  });
});

describe('aiSdkProvider checks the model it is given', () => {
  it('a model of another specification (AI SDK 4’s v1) is a ConfigurationError', () => {
    const old = { specificationVersion: 'v1', provider: 'old', modelId: 'm', doStream: () => Promise.reject(new Error('unused')) };
    expect(() => aiSdkProvider(old as unknown as AiSdkLanguageModel)).toThrow(ConfigurationError);
    expect(() => aiSdkProvider(old as unknown as AiSdkLanguageModel)).toThrow(/specification v2, v3 or v4 \(this one implements "v1"\)/);
  });

  it('maxRetries must be a whole number', async () => {
    const s = await serve([]);
    expect(() => aiSdkProvider(MODELS[0].on(s), { maxRetries: 1.5 })).toThrow(ConfigurationError);
  });
});
