import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { firstValueFrom } from 'rxjs';
import { openAIResponsesProvider, type ModelProvider, type ProviderEvent, type ToolSpec } from '../../src/index.js';
import { eventOffset, MODEL, replySse, startResponsesServer, type ResponsesServer, type ResponsesStep } from '../fixtures/responses-server.js';
import { eventsOf, summary, userRequest } from './helpers.js';
import { responsesClient } from './responses-helpers.js';

let server: ResponsesServer | undefined;
const serve = async (script: readonly ResponsesStep[] | ((body: any, n: number) => ResponsesStep)) => (server = await startResponsesServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather: ToolSpec = Object.freeze({
  name: 'weather',
  description: 'Current weather for a city',
  parameters: Object.freeze({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
});

const providerOn = (s: ResponsesServer, options = {}): ModelProvider => openAIResponsesProvider(responsesClient(s), options);
const finish = (reason = 'completed') => ({ type: 'finish', reason, responseId: 'resp_fixture', responseModel: MODEL });
const usage = { type: 'usage', inputTokens: 12, outputTokens: 7 };
/** The text, and every other event in order, argument deltas included. */
const withDeltas = (events: ProviderEvent[]) => ({ text: summary(events).text, rest: events.filter((e) => e.type !== 'text-delta') });

/** Two calls whose arguments arrive in fragments that cut keys, strings and escapes apart. */
const twoCalls: ResponsesStep = {
  kind: 'reply',
  text: ['Checking ', 'both.'],
  toolCalls: [
    { callId: 'call_a', name: 'weather', arguments: ['{"ci', 'ty":"Os', 'lo \\"N', '\\""}'] },
    { callId: 'call_b', name: 'weather', arguments: ['{"city":', '"Bergen"}'] },
  ],
};
const twoCallsEvents = {
  text: 'Checking both.',
  rest: [
    { type: 'tool-call-delta', index: 0, id: 'call_a', name: 'weather', argumentsDelta: '{"ci' },
    { type: 'tool-call-delta', index: 0, id: 'call_a', name: 'weather', argumentsDelta: 'ty":"Os' },
    { type: 'tool-call-delta', index: 0, id: 'call_a', name: 'weather', argumentsDelta: 'lo \\"N' },
    { type: 'tool-call-delta', index: 0, id: 'call_a', name: 'weather', argumentsDelta: '\\""}' },
    { type: 'tool-call-delta', index: 1, id: 'call_b', name: 'weather', argumentsDelta: '{"city":' },
    { type: 'tool-call-delta', index: 1, id: 'call_b', name: 'weather', argumentsDelta: '"Bergen"}' },
    { type: 'tool-call', id: 'call_a', name: 'weather', arguments: '{"city":"Oslo \\"N\\""}' },
    { type: 'tool-call', id: 'call_b', name: 'weather', arguments: '{"city":"Bergen"}' },
    usage,
    finish(),
  ],
};

describe('Request body: model, input items, tools as function entries, store and stream', () => {
  it('sends instructions from the system messages, the user message as input, tools with strict: false', async () => {
    const s = await serve([{ kind: 'reply', text: 'ok' }]);
    const messages = [{ role: 'system', content: 'Be brief.' }, { role: 'system', content: 'Use tools.' }, { role: 'user', content: 'hi' }] as const;
    await eventsOf(providerOn(s), userRequest({ messages, tools: [weather], temperature: 0.2 }));
    expect(s.requests[0].url).toBe('/v1/responses');
    expect(s.requests[0].body).toEqual({
      model: 'fixture-model',
      instructions: 'Be brief.\n\nUse tools.',
      input: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', name: 'weather', description: weather.description, parameters: weather.parameters, strict: false }],
      temperature: 0.2,
      store: true,
      stream: true,
    });
  });

  it('store: false asks for the encrypted reasoning, merged with an include of params', async () => {
    const s = await serve(() => ({ kind: 'reply', text: 'ok' }));
    await eventsOf(providerOn(s, { store: false }));
    await eventsOf(providerOn(s, { store: false, params: { include: ['message.output_text.logprobs'], max_output_tokens: 64 } }));
    expect(s.requests[0].body).toEqual({ model: 'fixture-model', input: [{ role: 'user', content: 'hi' }], store: false, include: ['reasoning.encrypted_content'], stream: true });
    expect(s.requests[1].body).toMatchObject({ max_output_tokens: 64, include: ['message.output_text.logprobs', 'reasoning.encrypted_content'] });
  });

  it('previousResponseId without store is a configuration error when the provider is made', () => {
    expect(() => openAIResponsesProvider({ responses: { create: () => Promise.reject(new Error('unused')) } } as never, { store: false, previousResponseId: true })).toThrow(
      /previousResponseId needs store/,
    );
  });

  it('names itself openai-responses, openai in telemetry, at the client base URL', async () => {
    const s = await serve([]);
    const provider = providerOn(s);
    expect(provider).toMatchObject({ name: 'openai-responses', telemetryName: 'openai', nativeTools: true, server: { address: '127.0.0.1', port: Number(new URL(s.baseURL).port) } });
  });
});

describe('Streaming: text and argument deltas as they arrive, complete calls at the end', () => {
  it('emits a text delta before the stream has ended', async () => {
    const step = { kind: 'reply', text: ['first ', 'second'] } as const;
    const s = await serve([{ ...step, stallAfterBytes: eventOffset(replySse(step), '"delta":"second"') }]);
    const controller = new AbortController();
    expect(await firstValueFrom(providerOn(s).request(userRequest(), controller.signal))).toEqual({ type: 'text-delta', text: 'first ' });
    controller.abort();
    await s.clientClosed(0);
  });

  it('several calls split across deltas: a tool-call-delta per fragment, then each call whole, then usage and finish', async () => {
    const s = await serve([twoCalls]);
    expect(withDeltas(await eventsOf(providerOn(s)))).toEqual(twoCallsEvents);
  });

  it('the same stream written one byte at a time gives the same events', async () => {
    const s = await serve([{ ...twoCalls, split: 'bytes' }]);
    expect(withDeltas(await eventsOf(providerOn(s)))).toEqual(twoCallsEvents);
  });

  it('the same stream cut at every event boundary and inside every event gives the same events', async () => {
    const sse = replySse(twoCalls);
    const cuts = Array.from({ length: Math.floor(Buffer.byteLength(sse) / 7) }, (_, n) => (n + 1) * 7);
    const s = await serve([{ ...twoCalls, split: cuts }]);
    expect(withDeltas(await eventsOf(providerOn(s)))).toEqual(twoCallsEvents);
  });

  it('the stream re-cut into two chunks at every byte boundary gives the same events', async () => {
    // TCP keeps no write boundaries, so the real client's fetch reads the fixture's response once
    // and hands the client's SSE decoder the same bytes cut in two at each boundary in turn.
    const s = await serve([{ ...twoCalls, reasoning: [{ id: 'rs_1', summary: 'Two cities.' }] }]);
    const bytes = new Uint8Array(await (await fetch(`${s.baseURL}/responses`, { method: 'POST', body: '{"stream":true}' })).arrayBuffer());
    let boundary = 0;
    const cut: typeof fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes.slice(0, boundary));
            controller.enqueue(bytes.slice(boundary));
            controller.close();
          },
        }),
        { status: 200, headers: { 'content-type': 'text/event-stream' } },
      );
    const provider = openAIResponsesProvider(new OpenAI({ apiKey: 'k', baseURL: s.baseURL, fetch: cut, maxRetries: 0, logLevel: 'off' }));
    const reasoning = { type: 'reasoning', part: { provider: 'openai-responses', data: { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Two cities.' }] } } };
    const order = { type: 'reasoning', part: { provider: 'openai-responses', data: { type: 'output_order', items: [{ type: 'reasoning', id: 'rs_1' }, { type: 'message', id: 'msg_1' }, { type: 'function_call', id: 'fc_1', call_id: 'call_a' }, { type: 'function_call', id: 'fc_2', call_id: 'call_b' }] } } };
    const expected = JSON.stringify([...twoCallsEvents.rest.slice(0, 6), reasoning, order, ...twoCallsEvents.rest.slice(6)]);
    const mismatches: number[] = [];
    for (boundary = 1; boundary < bytes.length; boundary++) {
      const got = await eventsOf(provider);
      if (got.map((e) => (e.type === 'text-delta' ? e.text : '')).join('') !== twoCallsEvents.text) mismatches.push(boundary);
      else if (JSON.stringify(got.filter((e) => e.type !== 'text-delta')) !== expected) mismatches.push(boundary);
    }
    expect(bytes.length).toBeGreaterThan(4000);
    expect(mismatches).toEqual([]);
  }, 60_000);

  it('every tool-call-delta of a call comes before its tool-call', async () => {
    const s = await serve([twoCalls]);
    const events = await eventsOf(providerOn(s));
    const lastDelta = events.findLastIndex((e) => e.type === 'tool-call-delta');
    const firstCall = events.findIndex((e) => e.type === 'tool-call');
    expect(lastDelta).toBeGreaterThan(-1);
    expect(firstCall).toBeGreaterThan(lastDelta);
  });

  it('reasoning items come out whole as reasoning parts, in output order, before the calls', async () => {
    const s = await serve([{ kind: 'reply', reasoning: [{ id: 'rs_1', summary: 'Need weather.' }], toolCalls: [{ callId: 'call_a', name: 'weather', arguments: '{"city":"Oslo"}' }] }]);
    const { rest } = summary(await eventsOf(providerOn(s)));
    expect(rest).toEqual([
      { type: 'reasoning', part: { provider: 'openai-responses', data: { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Need weather.' }] } } },
      // the ids the API pairs a reasoning item with the item after it by, in output order
      { type: 'reasoning', part: { provider: 'openai-responses', data: { type: 'output_order', items: [{ type: 'reasoning', id: 'rs_1' }, { type: 'function_call', id: 'fc_1', call_id: 'call_a' }] } } },
      { type: 'tool-call', id: 'call_a', name: 'weather', arguments: '{"city":"Oslo"}' },
      usage,
      finish(),
    ]);
  });

  it('with store: false the reasoning parts carry their encrypted content', async () => {
    const s = await serve([{ kind: 'reply', reasoning: [{ id: 'rs_1' }], text: 'Hi.' }]);
    const parts = (await eventsOf(providerOn(s, { store: false }))).filter((e) => e.type === 'reasoning');
    expect(parts).toEqual([
      { type: 'reasoning', part: { provider: 'openai-responses', data: { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc:rs_1' } } },
      { type: 'reasoning', part: { provider: 'openai-responses', data: { type: 'output_order', items: [{ type: 'reasoning', id: 'rs_1' }, { type: 'message', id: 'msg_1' }] } } },
    ]);
  });

  it('with previousResponseId the response id is kept as a reasoning part, and only then', async () => {
    const s = await serve(() => ({ kind: 'reply', id: 'resp_42', text: 'Hi.' }));
    const chained = (await eventsOf(providerOn(s, { previousResponseId: true }))).filter((e) => e.type === 'reasoning');
    const plain = (await eventsOf(providerOn(s))).filter((e) => e.type === 'reasoning');
    expect(chained).toEqual([{ type: 'reasoning', part: { provider: 'openai-responses', data: { type: 'response_id', id: 'resp_42' } } }]);
    expect(plain).toEqual([]);
  });

  it('a response.incomplete finishes with its reason and drops a call it cut off', async () => {
    const cutCall = { kind: 'reply', text: 'Let me', incomplete: 'max_output_tokens' } as const;
    const sse = replySse(cutCall).replace(
      'event: response.incomplete',
      'event: response.output_item.added\ndata: {"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_x","name":"weather","arguments":""}}\n\n' +
        'event: response.function_call_arguments.delta\ndata: {"type":"response.function_call_arguments.delta","output_index":1,"item_id":"fc_1","delta":"{\\"ci"}\n\nevent: response.incomplete',
    );
    const s = await serve([{ kind: 'raw', sse }]);
    expect(withDeltas(await eventsOf(providerOn(s)))).toEqual({
      text: 'Let me',
      rest: [{ type: 'tool-call-delta', index: 0, id: 'call_x', name: 'weather', argumentsDelta: '{"ci' }, usage, finish('max_output_tokens')],
    });
  });
});

describe('Non-streaming mode', () => {
  it('sends stream: false and emits the text, reasoning, calls, usage and finish of one response', async () => {
    const s = await serve([{ kind: 'reply', reasoning: [{ id: 'rs_1' }], text: 'Checking.', toolCalls: [{ callId: 'c1', name: 'weather', arguments: ['{"city":', '"Oslo"}'] }] }]);
    const events: ProviderEvent[] = await eventsOf(providerOn(s, { stream: false }));
    expect(s.requests[0].body.stream).toBe(false);
    expect(events).toEqual([
      { type: 'text-delta', text: 'Checking.' },
      { type: 'reasoning', part: { provider: 'openai-responses', data: { type: 'reasoning', id: 'rs_1', summary: [] } } },
      { type: 'reasoning', part: { provider: 'openai-responses', data: { type: 'output_order', items: [{ type: 'reasoning', id: 'rs_1' }, { type: 'message', id: 'msg_1' }, { type: 'function_call', id: 'fc_1', call_id: 'c1' }] } } },
      { type: 'tool-call', id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' },
      usage,
      finish(),
    ]);
  });
});
