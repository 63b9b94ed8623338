import { afterEach, describe, expect, it, vi } from 'vitest';
import OpenAI from 'openai';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { openAIChatProvider, type ToolSpec } from '../../src/index.js';
import { eventOffset, replySse, startOpenAIServer, type OpenAIServer, type ServerStep } from '../fixtures/openai-server.js';
import { clientFor, eventsOf, summary, userRequest } from './helpers.js';
import { recordedCalls, recordedSse, recordedText } from './recorded-stream.js';

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

const expectedRecording = {
  text: recordedText,
  rest: [...recordedCalls, { type: 'usage', inputTokens: 81, outputTokens: 37 },
    { type: 'finish', reason: 'tool_calls', responseId: 'chatcmpl-rec1', responseModel: 'gpt-4o-mini-2024-07-18' },
  ],
};

describe('Provider request: Chat Completions with stream, usage and shared specs', () => {
  it('sends the model, the messages, the tools as function entries, stream and include_usage', async () => {
    const s = await serve([{ kind: 'reply', text: 'ok' }]);
    await eventsOf(openAIChatProvider(clientFor(s)), userRequest({ tools: [weather], temperature: 0.2 }));
    expect(s.requests[0].url).toBe('/v1/chat/completions');
    expect(s.requests[0].body).toEqual({
      model: 'fixture-model',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: weather }],
      temperature: 0.2,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('offers no tools key when the request has no tools, and merges extra params', async () => {
    const s = await serve([{ kind: 'reply', text: 'ok' }]);
    await eventsOf(openAIChatProvider(clientFor(s), { params: { max_tokens: 50 }, includeUsage: false }));
    expect(s.requests[0].body).toEqual({ model: 'fixture-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 50, stream: true });
  });

  it('wraps each spec once and passes the spec object itself, never a copy', async () => {
    const s = await serve(() => ({ kind: 'reply', text: 'x' }));
    const client = clientFor(s);
    // a spy that records the params and calls the real create (identity does not cross the wire)
    const create = vi.spyOn(client.chat.completions, 'create');
    const provider = openAIChatProvider(client, { stream: false });
    await eventsOf(provider, userRequest({ tools: [weather] }));
    await eventsOf(provider, userRequest({ tools: [weather] }));
    const [[first], [second]] = create.mock.calls as unknown as [{ tools: { function: ToolSpec }[] }][];
    expect(first.tools[0].function).toBe(weather);
    expect(second.tools[0]).toBe(first.tools[0]);
    expect(Object.isFrozen(first.tools[0])).toBe(true);
    expect(s.requests.map((r) => r.body.tools)).toEqual([[{ type: 'function', function: weather }], [{ type: 'function', function: weather }]]);
  });
});

describe('Streaming: text deltas as they arrive, tool calls assembled by index', () => {
  it('emits a tool-call-delta per argument fragment, by index, each before the complete calls; the fragments join into the arguments', async () => {
    const s = await serve([{ kind: 'raw', sse: recordedSse }]);
    const events = await eventsOf(openAIChatProvider(clientFor(s)));
    const deltas = events.flatMap((e, at) => (e.type === 'tool-call-delta' ? [{ ...e, at }] : []));
    const firstCall = events.findIndex((e) => e.type === 'tool-call');
    expect(deltas.length).toBeGreaterThan(recordedCalls.length);
    expect(deltas.every((d) => d.at < firstCall)).toBe(true);
    const joined = recordedCalls.map((_, index) => deltas.filter((d) => d.index === index).map((d) => d.argumentsDelta).join(''));
    expect(joined).toEqual(recordedCalls.map((c) => c.arguments));
    // the first delta of a call names it; later ones need not
    expect(recordedCalls.map((_, index) => deltas.find((d) => d.index === index)?.name)).toEqual(recordedCalls.map((c) => c.name));
  });

  it('sends a history that carries other providers\' fields (reasoning, isError) without them; one without them as it is', async () => {
    const s = await serve(() => ({ kind: 'reply', text: 'ok' }));
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{}' } }], reasoning: [{ provider: 'anthropic', data: { type: 'thinking', thinking: 'hm', signature: 'sig' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Error: no city', isError: true },
    ] as const;
    await eventsOf(openAIChatProvider(clientFor(s)), userRequest({ messages }));
    expect(s.requests[0].body.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Error: no city' },
    ]);
    expect(messages[1]).toHaveProperty('reasoning'); // the history itself is untouched
  });

  it('emits a text delta before the stream has ended', async () => {
    const step = { kind: 'reply', text: ['first ', 'second'] } as const;
    const s = await serve([{ ...step, stallAfterBytes: eventOffset(replySse(step), 'second') }]);
    const controller = new AbortController();
    const first = await firstValueFrom(openAIChatProvider(clientFor(s)).request(userRequest(), controller.signal));
    expect(first).toEqual({ type: 'text-delta', text: 'first ' });
    expect(s.requests[0].closedByClient).toBe(false);
    controller.abort();
    await s.clientClosed(0);
  });

  it('assembles fragments by index into complete calls, then reports usage and the finish reason', async () => {
    const s = await serve([{ kind: 'raw', sse: recordedSse }]);
    expect(summary(await eventsOf(openAIChatProvider(clientFor(s))))).toEqual(expectedRecording);
  });

  it('a recorded stream written one byte at a time assembles the same calls', async () => {
    const s = await serve([{ kind: 'raw', sse: recordedSse, split: 'bytes' }]);
    expect(summary(await eventsOf(openAIChatProvider(clientFor(s))))).toEqual(expectedRecording);
  });

  it('a recorded stream split at every byte boundary assembles the same calls', async () => {
    // The real client asks the fixture server for the recording, once per boundary. TCP keeps no
    // write boundaries (the server's pieces reach the client merged), so its `fetch` is the real
    // one, and only re-cuts the real response body into two chunks at the boundary before the
    // client's SSE decoder reads it.
    const s = await serve(() => ({ kind: 'raw', sse: recordedSse }));
    let boundary = 0;
    const cut: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, boundary));
          controller.enqueue(bytes.slice(boundary));
          controller.close();
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const provider = openAIChatProvider(new OpenAI({ apiKey: 'k', baseURL: s.baseURL, fetch: cut, maxRetries: 0, logLevel: 'off' }));
    const length = Buffer.byteLength(recordedSse);
    const mismatches: number[] = [];
    for (boundary = 1; boundary < length; boundary++) {
      const got = summary(await eventsOf(provider));
      if (JSON.stringify(got) !== JSON.stringify(expectedRecording)) mismatches.push(boundary);
    }
    expect(length).toBeGreaterThan(3000);
    expect(s.requests).toHaveLength(length - 1);
    expect(mismatches).toEqual([]);
  }, 60_000);

  it('reports a finish reason other than tool_calls as it came', async () => {
    const s = await serve([{ kind: 'reply', text: 'cut', finishReason: 'length' }]);
    expect((await eventsOf(openAIChatProvider(clientFor(s)))).at(-1)).toEqual({ type: 'finish', reason: 'length', responseId: 'chatcmpl-fixture', responseModel: 'fixture-model' });
  });
});

describe('Non-streaming mode', () => {
  it('sends stream: false and emits the text, the calls, usage and finish from one response', async () => {
    const s = await serve([{ kind: 'reply', text: 'Checking.', toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' }] }]);
    const events = await lastValueFrom(openAIChatProvider(clientFor(s), { stream: false }).request(userRequest(), new AbortController().signal).pipe(toArray()));
    expect(s.requests[0].body.stream).toBe(false);
    expect(events).toEqual([
      { type: 'text-delta', text: 'Checking.' },
      { type: 'tool-call', id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' },
      { type: 'usage', inputTokens: 10, outputTokens: 5 },
      { type: 'finish', reason: 'tool_calls', responseId: 'chatcmpl-fixture', responseModel: 'fixture-model' },
    ]);
  });
});
