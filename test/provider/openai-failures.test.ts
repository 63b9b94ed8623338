import { afterEach, describe, expect, it } from 'vitest';
import { lastValueFrom, materialize, toArray } from 'rxjs';
import { openAIChatProvider, ProviderError } from '../../src/index.js';
import { eventOffset, replySse, startOpenAIServer, type OpenAIServer, type ServerStep } from '../fixtures/openai-server.js';
import { clientFor, errorOf, userRequest, abortAfterFirstText, unsubscribeAfterFirstEvent } from './helpers.js';

let server: OpenAIServer | undefined;
const serve = async (script: readonly ServerStep[]) => (server = await startOpenAIServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const asProviderError = (err: unknown): ProviderError => {
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
};

describe('Provider failures end the request with a typed ProviderError', () => {
  it('an HTTP 5xx, after the client retried it, carries the status and the server message', async () => {
    const s = await serve([
      { kind: 'http-error', status: 503, message: 'overloaded' },
      { kind: 'http-error', status: 503, message: 'overloaded' },
    ]);
    const err = asProviderError(await errorOf(openAIChatProvider(clientFor(s, 1))));
    expect(s.requests).toHaveLength(2);
    expect(err.status).toBe(503);
    expect(err.code).toBe('provider_error');
    expect(err.message).toBe("Provider 'openai-chat' failed (HTTP 503): overloaded");
  });

  it('an HTTP 4xx is not retried and carries its status', async () => {
    const s = await serve([{ kind: 'http-error', status: 400, message: "Invalid 'messages'" }]);
    const err = asProviderError(await errorOf(openAIChatProvider(clientFor(s, 2))));
    expect(s.requests).toHaveLength(1);
    expect(err.status).toBe(400);
    expect(err.message).toContain("Invalid 'messages'");
  });

  it('a 429 that the client retries successfully is no failure', async () => {
    const s = await serve([{ kind: 'http-error', status: 429 }, { kind: 'reply', text: 'fine' }]);
    const events = await lastValueFrom(openAIChatProvider(clientFor(s, 1)).request(userRequest(), new AbortController().signal).pipe(toArray()));
    expect(events[0]).toEqual({ type: 'text-delta', text: 'fine' });
    expect(s.requests).toHaveLength(2);
  });

  it('a connection reset before any response is a no-response error, without a status', async () => {
    const s = await serve([{ kind: 'reset' }]);
    const err = asProviderError(await errorOf(openAIChatProvider(clientFor(s))));
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(/^Provider 'openai-chat' failed: no response from the server \(.+\)\.$/);
  });

  it('a server that is not listening gives the connection error in the message', async () => {
    const s = await serve([]);
    const client = clientFor(s);
    await s.close();
    const err = asProviderError(await errorOf(openAIChatProvider(client)));
    expect(err.message).toMatch(/no response from the server \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)/);
  });

  it('a connection reset mid-stream fails after the text that did arrive', async () => {
    const step = { kind: 'reply', text: ['partial ', 'never seen'] } as const;
    const cut = eventOffset(replySse(step), 'never seen');
    const s = await serve([{ ...step, split: [cut], resetAfterBytes: cut + 10 }]);
    const notes = await lastValueFrom(openAIChatProvider(clientFor(s)).request(userRequest(), new AbortController().signal).pipe(materialize(), toArray()));
    expect(notes.filter((n) => n.kind === 'N').map((n) => n.value)).toEqual([{ type: 'text-delta', text: 'partial ' }]);
    const err = asProviderError(notes.at(-1)?.error);
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(/^Provider 'openai-chat' failed: the connection was lost mid-stream/);
  });

  it('malformed SSE (an event that is not JSON) is a malformed-stream error', async () => {
    const s = await serve([{ kind: 'raw', sse: 'data: {"choices": [{"index": 0, "delta": {"content": "a"}}]}\n\ndata: {oops\n\n' }]);
    const err = asProviderError(await errorOf(openAIChatProvider(clientFor(s))));
    expect(err.message).toMatch(/^Provider 'openai-chat' failed: the server sent a malformed stream event/);
  });

  it('an error object sent inside the stream is reported with its message', async () => {
    const s = await serve([{ kind: 'raw', sse: 'data: {"error": {"message": "model crashed", "type": "server_error"}}\n\n' }]);
    const err = asProviderError(await errorOf(openAIChatProvider(clientFor(s))));
    expect(err.message).toBe("Provider 'openai-chat' failed: the server reported an error mid-stream: model crashed");
  });

  it('a stream that ends cleanly before any finish_reason is a truncated response, not an answer', async () => {
    const s = await serve([{ kind: 'raw', sse: 'data: {"choices": [{"index": 0, "delta": {"content": "half an ans"}, "finish_reason": null}]}\n\n' }]);
    const err = asProviderError(await errorOf(openAIChatProvider(clientFor(s))));
    expect(err.message).toMatch(/stream ended before the response was complete/);
  });
});

/** Sends its first text delta, then holds the stream open. */
const firstOnly = { kind: 'reply', text: ['first ', 'rest'] } as const;
const stalled: ServerStep = { ...firstOnly, stallAfterBytes: eventOffset(replySse(firstOnly), 'rest') };

describe('Cancellation stops the HTTP stream', () => {
  it('aborting the signal mid-stream closes the connection, and the server sees the close', async () => {
    const s = await serve([stalled]);
    const { openAtText, notes } = await abortAfterFirstText(openAIChatProvider(clientFor(s)), s);
    expect(openAtText).toBe(true);
    expect(s.requests[0].closedByClient).toBe(true);
    expect(notes.map((n) => n.kind)).toEqual(['N', 'E']);
    expect(asProviderError(notes[1].kind === 'E' ? notes[1].error : undefined).message).toMatch(/the request was cancelled/);
  });

  it('unsubscribing mid-stream closes the connection', async () => {
    const s = await serve([stalled]);
    const { first, openAtFirst } = await unsubscribeAfterFirstEvent(openAIChatProvider(clientFor(s)), s);
    expect(first).toEqual({ type: 'text-delta', text: 'first ' });
    expect(openAtFirst).toBe(true);
    expect(s.requests[0].closedByClient).toBe(true);
  });

  it('an already-aborted signal sends no request', async () => {
    const s = await serve([{ kind: 'reply', text: 'x' }]);
    const controller = new AbortController();
    controller.abort();
    const notes = await lastValueFrom(openAIChatProvider(clientFor(s)).request(userRequest(), controller.signal).pipe(materialize(), toArray()));
    expect(asProviderError(notes.at(-1)?.error).message).toMatch(/cancelled/);
    expect(s.requests).toHaveLength(0);
  });
});
