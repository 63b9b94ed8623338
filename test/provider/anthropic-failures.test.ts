import { afterEach, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { lastValueFrom, materialize, toArray } from 'rxjs';
import { anthropicProvider, createAgent, ProviderError } from '../../src/index.js';
import { errorEvent, eventOffset, replySse, startAnthropicServer, type AnthropicServer, type AnthropicStep } from '../fixtures/anthropic-server.js';
import { leakedWindows, secretsCorpus } from '../fixtures/secrets-corpus.js';
import { anthropicFor, TEST_KEY } from './anthropic-helpers.js';
import { errorOf, userRequest, abortAfterFirstText, unsubscribeAfterFirstEvent } from './helpers.js';

let server: AnthropicServer | undefined;
const serve = async (script: readonly AnthropicStep[] | ((body: any, n: number) => AnthropicStep)) => (server = await startAnthropicServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const asProviderError = (err: unknown): ProviderError => {
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
};

const notesOf = (s: AnthropicServer, signal = new AbortController().signal) =>
  lastValueFrom(anthropicProvider(anthropicFor(s)).request(userRequest(), signal).pipe(materialize(), toArray()));

const textReply = (...texts: string[]) => ({ kind: 'reply', content: [{ type: 'text', text: texts }] }) as const;

describe('HTTP errors end the request with a ProviderError that carries the status, scrubbed', () => {
  it('a 401 that echoes the key is not retried, and the key appears nowhere in the error', async () => {
    const s = await serve(() => ({ kind: 'http-error', status: 401, message: `invalid x-api-key: ${TEST_KEY}` }));
    const err = asProviderError(await errorOf(anthropicProvider(anthropicFor(s, 2))));
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0].headers.authorization ?? s.requests[0].headers['x-api-key']).toContain(TEST_KEY);
    expect(err.status).toBe(401);
    expect(err.message).toBe("Provider 'anthropic' failed (HTTP 401): invalid x-api-key: [REDACTED]");
    expect(JSON.stringify(err)).not.toContain(TEST_KEY);
    expect(String(err.stack)).not.toContain(TEST_KEY);
    let cause: unknown = err.cause;
    for (let depth = 0; cause instanceof Error; depth++, cause = cause.cause) {
      expect(`${cause.message} ${cause.stack} ${JSON.stringify(cause)}`, `cause ${depth}`).not.toContain(TEST_KEY);
    }
  });

  it.each([401, 403, 500])('HTTP %i through createAgent: no window of a real-shaped key is left in message, stack, JSON or causes', async (status) => {
    const key = secretsCorpus().find((c) => c.name.startsWith('Anthropic key'))!.secret;
    const s = await serve([{ kind: 'http-error', status, message: `x-api-key ${key} is not valid; sent ${key}` }]);
    const client = new Anthropic({ baseURL: s.baseURL, apiKey: key, maxRetries: 0, logLevel: 'off' });
    const agent = createAgent({ provider: anthropicProvider(client), model: 'fixture-model', tools: [] });
    const err = asProviderError(await agent.complete({ message: 'go' }).then(() => expect.fail('the turn completed'), (e: unknown) => e));
    expect(err.status).toBe(status);
    const surfaces: string[] = [];
    for (let at: unknown = err, depth = 0; at instanceof Error && depth < 10; at = at.cause, depth++) {
      surfaces.push(at.message, at.stack ?? '', JSON.stringify(at), String(at));
    }
    expect(surfaces.length).toBeGreaterThanOrEqual(8); // the ProviderError and the SDK's error, at least
    expect(surfaces.flatMap((text) => leakedWindows(text, key))).toEqual([]);
  });

  it('a client with an auth token instead of a key: a 401 that echoes the token shows it nowhere', async () => {
    const token = 'oauth-token-abcdefgh12345678';
    const s = await serve([{ kind: 'http-error', status: 401, message: `token ${token} has expired` }]);
    const client = new Anthropic({ baseURL: s.baseURL, apiKey: null, authToken: token, maxRetries: 0, logLevel: 'off' });
    const err = asProviderError(await errorOf(anthropicProvider(client)));
    expect(s.requests[0].headers.authorization).toBe(`Bearer ${token}`);
    expect(err.message).toBe("Provider 'anthropic' failed (HTTP 401): token [REDACTED] has expired");
    expect(`${err.stack} ${JSON.stringify(err)} ${JSON.stringify(err.cause)}`).not.toContain(token);
  });

  it('a 429 the client retries successfully is no failure', async () => {
    const s = await serve([{ kind: 'http-error', status: 429, message: 'Number of requests has exceeded your rate limit' }, textReply('fine')]);
    const events = await lastValueFrom(anthropicProvider(anthropicFor(s, 1)).request(userRequest(), new AbortController().signal).pipe(toArray()));
    expect(events[0]).toEqual({ type: 'text-delta', text: 'fine' });
    expect(s.requests).toHaveLength(2);
  });

  it('a 429 on every attempt carries the status and the server message', async () => {
    const s = await serve(() => ({ kind: 'http-error', status: 429, message: 'Number of requests has exceeded your rate limit' }));
    const err = asProviderError(await errorOf(anthropicProvider(anthropicFor(s, 1))));
    expect(s.requests).toHaveLength(2);
    expect(err.status).toBe(429);
    expect(err.message).toBe("Provider 'anthropic' failed (HTTP 429): Number of requests has exceeded your rate limit");
  });

  it('a 500 then a 529 reports the first failure and notes the last', async () => {
    const s = await serve([
      { kind: 'http-error', status: 500, message: 'Internal server error' },
      { kind: 'http-error', status: 529, message: 'Overloaded' },
    ]);
    const err = asProviderError(await errorOf(anthropicProvider(anthropicFor(s, 1))));
    expect(err.status).toBe(500);
    expect(err.message).toBe("Provider 'anthropic' failed (HTTP 500): Internal server error (the retry failed too, the last with HTTP 529: Overloaded)");
  });

  it('a connection reset before any response is a no-response error, without a status', async () => {
    const s = await serve([{ kind: 'reset' }]);
    const err = asProviderError(await errorOf(anthropicProvider(anthropicFor(s))));
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(/^Provider 'anthropic' failed: no response from the server \(.+\)\.$/);
  });
});

describe('Errors mid-stream fail the request after what did arrive', () => {
  it('an error event is reported with its message and type', async () => {
    const sse = replySse(textReply('partial ', 'never seen'));
    const s = await serve([{ kind: 'raw', sse: sse.slice(0, eventOffset(sse, 'never seen')) + errorEvent('overloaded_error', 'Overloaded') }]);
    const notes = await notesOf(s);
    expect(notes.filter((n) => n.kind === 'N').map((n) => n.value)).toEqual([{ type: 'text-delta', text: 'partial ' }]);
    const err = asProviderError(notes.at(-1)?.error);
    expect(err.status).toBeUndefined();
    expect(err.message).toBe("Provider 'anthropic' failed: the server reported an error mid-stream: Overloaded (overloaded_error)");
  });

  it('a connection reset mid-stream is a lost connection', async () => {
    const step = textReply('partial ', 'never seen');
    const cut = eventOffset(replySse(step), 'never seen');
    const s = await serve([{ ...step, split: [cut], resetAfterBytes: cut + 10 }]);
    const notes = await notesOf(s);
    expect(notes.filter((n) => n.kind === 'N').map((n) => n.value)).toEqual([{ type: 'text-delta', text: 'partial ' }]);
    expect(asProviderError(notes.at(-1)?.error).message).toMatch(/^Provider 'anthropic' failed: the connection was lost mid-stream/);
  });

  it('a stream that ends cleanly before message_stop is a truncated response, not an answer', async () => {
    const sse = replySse({ kind: 'reply', content: [{ type: 'tool_use', id: 't1', name: 'weather', input: ['{"city":', '"Oslo"}'] }] });
    const s = await serve([{ kind: 'raw', sse: sse.slice(0, eventOffset(sse, '"message_stop"')) }]);
    const notes = await notesOf(s);
    expect(notes.some((n) => n.kind === 'N' && n.value.type === 'tool-call')).toBe(false);
    expect(asProviderError(notes.at(-1)?.error).message).toBe(
      "Provider 'anthropic' failed: the stream ended before the response was complete (no message_stop).",
    );
  });

  it('an event that is not JSON is a malformed-stream error', async () => {
    const s = await serve([{ kind: 'raw', sse: 'event: message_start\ndata: {oops\n\n' }]);
    expect(asProviderError(await errorOf(anthropicProvider(anthropicFor(s)))).message).toMatch(
      /^Provider 'anthropic' failed: the server sent a malformed stream event/,
    );
  });
});

/** Sends its first text delta, then holds the stream open. */
const firstOnly = textReply('first ', 'rest');
const stalled: AnthropicStep = { ...firstOnly, stallAfterBytes: eventOffset(replySse(firstOnly), 'rest') };

describe('Cancellation aborts the HTTP request', () => {
  it('aborting the signal mid-stream closes the connection, and the request ends as cancelled', async () => {
    const s = await serve([stalled]);
    const { openAtText, notes } = await abortAfterFirstText(anthropicProvider(anthropicFor(s)), s);
    expect(openAtText).toBe(true);
    expect(s.requests[0].closedByClient).toBe(true);
    expect(notes.map((n) => n.kind)).toEqual(['N', 'E']);
    expect(asProviderError(notes[1].kind === 'E' ? notes[1].error : undefined).message).toBe("Provider 'anthropic' failed: the request was cancelled.");
  });

  it('unsubscribing mid-stream closes the connection', async () => {
    const s = await serve([stalled]);
    const { first, openAtFirst } = await unsubscribeAfterFirstEvent(anthropicProvider(anthropicFor(s)), s);
    expect(first).toEqual({ type: 'text-delta', text: 'first ' });
    expect(openAtFirst).toBe(true);
    expect(s.requests[0].closedByClient).toBe(true);
  });

  it('an already-aborted signal sends no request', async () => {
    const s = await serve([textReply('x')]);
    const controller = new AbortController();
    controller.abort();
    const notes = await notesOf(s, controller.signal);
    expect(asProviderError(notes.at(-1)?.error).message).toMatch(/cancelled/);
    expect(s.requests).toHaveLength(0);
  });
});
