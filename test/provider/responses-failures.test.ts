import { afterEach, describe, expect, it } from 'vitest';
import { lastValueFrom, materialize, toArray } from 'rxjs';
import { openAIResponsesProvider, ProviderError } from '../../src/index.js';
import { eventOffset, replySse, startResponsesServer, type ResponsesServer, type ResponsesStep } from '../fixtures/responses-server.js';
import { errorOf, userRequest, abortAfterFirstText, unsubscribeAfterFirstEvent } from './helpers.js';
import { responsesClient } from './responses-helpers.js';

let server: ResponsesServer | undefined;
const serve = async (script: readonly ResponsesStep[]) => (server = await startResponsesServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const asProviderError = (err: unknown): ProviderError => {
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
};
const failureOf = async (s: ResponsesServer, maxRetries = 0, stream = true) =>
  asProviderError(await errorOf(openAIResponsesProvider(responsesClient(s, maxRetries), { stream })));
const notesOf = (s: ResponsesServer) =>
  lastValueFrom(openAIResponsesProvider(responsesClient(s)).request(userRequest(), new AbortController().signal).pipe(materialize(), toArray()));

/** A stream that ends with `closing` (raw SSE) after its text. */
const textThen = (closing: string): string =>
  `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"partial","sequence_number":1}\n\n${closing}`;

describe('HTTP errors end the request with a ProviderError that carries the status', () => {
  it('a 401 is not retried, carries its status and the server message, and never the key', async () => {
    const s = await serve([{ kind: 'http-error', status: 401, message: 'Incorrect API key provided: test-key-responses' }]);
    const err = await failureOf(s, 2);
    expect(s.requests).toHaveLength(1);
    expect(err.status).toBe(401);
    expect(err.message).toBe("Provider 'openai-responses' failed (HTTP 401): Incorrect API key provided: [REDACTED]");
    expect(JSON.stringify(err)).not.toContain('test-key-responses');
  });

  it('a 429 that the client retries successfully is no failure', async () => {
    const s = await serve([{ kind: 'http-error', status: 429 }, { kind: 'reply', text: 'fine' }]);
    const notes = await lastValueFrom(
      openAIResponsesProvider(responsesClient(s, 1)).request(userRequest(), new AbortController().signal).pipe(materialize(), toArray()),
    );
    expect(notes[0]).toMatchObject({ kind: 'N', value: { type: 'text-delta', text: 'fine' } });
    expect(notes.at(-1)?.kind).toBe('C');
    expect(s.requests).toHaveLength(2);
  });

  it('a 429 on every attempt reports the status after the retries', async () => {
    const s = await serve([{ kind: 'http-error', status: 429, message: 'slow down' }, { kind: 'http-error', status: 429, message: 'slow down' }]);
    const err = await failureOf(s, 1);
    expect(s.requests).toHaveLength(2);
    expect(err.status).toBe(429);
    expect(err.message).toBe("Provider 'openai-responses' failed (HTTP 429): slow down");
  });

  it('a 500 followed by a different failure reports the first one, and the last', async () => {
    const s = await serve([{ kind: 'http-error', status: 500, message: 'boom' }, { kind: 'http-error', status: 503, message: 'overloaded' }]);
    const err = await failureOf(s, 1);
    expect(err.status).toBe(500);
    expect(err.message).toBe("Provider 'openai-responses' failed (HTTP 500): boom (the retry failed too, the last with HTTP 503: overloaded)");
  });

  it('a 500 in non-streaming mode carries the status too', async () => {
    const s = await serve([{ kind: 'http-error', status: 500, message: 'boom' }]);
    expect((await failureOf(s, 0, false)).status).toBe(500);
  });
});

describe('Errors mid-stream fail after the text that did arrive', () => {
  it('response.failed reports the server message and code', async () => {
    const failed = 'event: response.failed\ndata: {"type":"response.failed","response":{"id":"resp_1","status":"failed","error":{"code":"server_error","message":"The model crashed."}},"sequence_number":2}\n\n';
    const s = await serve([{ kind: 'raw', sse: textThen(failed) }]);
    const notes = await notesOf(s);
    expect(notes.filter((n) => n.kind === 'N').map((n) => n.value)).toEqual([{ type: 'text-delta', text: 'partial' }]);
    const err = asProviderError(notes.at(-1)?.error);
    expect(err.status).toBeUndefined();
    expect(err.message).toBe("Provider 'openai-responses' failed: the response failed: The model crashed. (server_error)");
  });

  it('an error event reports its message and code', async () => {
    const error = 'event: error\ndata: {"type":"error","code":"rate_limit_exceeded","message":"Too many tokens.","param":null,"sequence_number":2}\n\n';
    const s = await serve([{ kind: 'raw', sse: textThen(error) }]);
    const err = asProviderError((await notesOf(s)).at(-1)?.error);
    expect(err.message).toBe("Provider 'openai-responses' failed: the server reported an error mid-stream: Too many tokens.");
  });

  it('a whole response with status failed is a ProviderError in non-streaming mode', async () => {
    const failed = { id: 'resp_1', object: 'response', status: 'failed', error: { code: 'server_error', message: 'no luck' }, output: [], usage: null };
    const s = await serve([{ kind: 'json', body: failed }]);
    const provider = openAIResponsesProvider(responsesClient(s), { stream: false });
    const err = asProviderError(await errorOf(provider));
    expect(err.message).toBe("Provider 'openai-responses' failed: the response failed: no luck (server_error)");
  });

  it('a connection reset mid-stream is a lost connection, after the text that did arrive', async () => {
    const step = { kind: 'reply', text: ['partial ', 'never seen'] } as const;
    const cut = eventOffset(replySse(step), '"delta":"never seen"');
    const s = await serve([{ ...step, split: [cut], resetAfterBytes: cut + 10 }]);
    const notes = await notesOf(s);
    expect(notes.filter((n) => n.kind === 'N').map((n) => n.value)).toEqual([{ type: 'text-delta', text: 'partial ' }]);
    expect(asProviderError(notes.at(-1)?.error).message).toMatch(/^Provider 'openai-responses' failed: the connection was lost mid-stream/);
  });

  it('a stream that ends cleanly before response.completed is a truncated response, not an answer', async () => {
    const step = { kind: 'reply', toolCalls: [{ callId: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' }] } as const;
    const sse = replySse(step);
    const s = await serve([{ kind: 'raw', sse: sse.slice(0, sse.indexOf('event: response.completed')) }]);
    const notes = await notesOf(s);
    expect(notes.some((n) => n.kind === 'N' && n.value.type === 'tool-call')).toBe(false);
    expect(asProviderError(notes.at(-1)?.error).message).toBe(
      "Provider 'openai-responses' failed: the stream ended before the response was complete (no response.completed).",
    );
  });

  it('malformed SSE (an event that is not JSON) is a malformed-stream error', async () => {
    const s = await serve([{ kind: 'raw', sse: textThen('event: response.output_text.delta\ndata: {oops\n\n') }]);
    expect((await failureOf(s)).message).toMatch(/^Provider 'openai-responses' failed: the server sent a malformed stream event/);
  });
});

/** Sends its first text delta, then holds the stream open. */
const firstOnly = { kind: 'reply', text: ['first ', 'rest'] } as const;
const stalled: ResponsesStep = { ...firstOnly, stallAfterBytes: eventOffset(replySse(firstOnly), '"delta":"rest"') };

describe('Cancellation aborts the HTTP request', () => {
  it('aborting the signal mid-stream closes the connection and ends with a cancelled ProviderError', async () => {
    const s = await serve([stalled]);
    const { openAtText, notes } = await abortAfterFirstText(openAIResponsesProvider(responsesClient(s)), s);
    expect(openAtText).toBe(true);
    expect(notes.map((n) => n.kind)).toEqual(['N', 'E']);
    expect(asProviderError(notes[1].kind === 'E' ? notes[1].error : undefined).message).toMatch(/the request was cancelled/);
  });

  it('unsubscribing mid-stream closes the connection', async () => {
    const s = await serve([stalled]);
    const { first, openAtFirst } = await unsubscribeAfterFirstEvent(openAIResponsesProvider(responsesClient(s)), s);
    expect(first).toEqual({ type: 'text-delta', text: 'first ' });
    expect(openAtFirst).toBe(true);
    expect(s.requests[0].closedByClient).toBe(true);
  });

  it('an already-aborted signal sends no request', async () => {
    const s = await serve([{ kind: 'reply', text: 'x' }]);
    const controller = new AbortController();
    controller.abort();
    const notes = await lastValueFrom(openAIResponsesProvider(responsesClient(s)).request(userRequest(), controller.signal).pipe(materialize(), toArray()));
    expect(asProviderError(notes.at(-1)?.error).message).toMatch(/cancelled/);
    expect(s.requests).toHaveLength(0);
  });
});
