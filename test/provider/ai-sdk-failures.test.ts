import { afterEach, describe, expect, it } from 'vitest';
import { lastValueFrom, materialize, toArray } from 'rxjs';
import { aiSdkProvider, ProviderError } from '../../src/index.js';
import { eventOffset, replySse, startOpenAIServer, type OpenAIServer, type ServerStep } from '../fixtures/openai-server.js';
import { errorOf, eventsOf, userRequest, abortAfterFirstText, unsubscribeAfterFirstEvent } from './helpers.js';
import { MODELS } from './ai-sdk-models.js';

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

/** Sends its first text delta, then holds the stream open. */
const firstOnly = { kind: 'reply', text: ['first ', 'rest'] } as const;
const stalled: ServerStep = { ...firstOnly, stallAfterBytes: eventOffset(replySse(firstOnly), 'rest') };

describe.each(MODELS)('Failures of the real $label end the request with a typed ProviderError', ({ on }) => {
  describe('HTTP errors carry their status and the server’s message', () => {
    it('a 401 is not retried, and a key the server echoes is scrubbed', async () => {
      const key = 'sk-proj-abcdefghijklmnopqrstuvwx1234';
      const s = await serve([{ kind: 'http-error', status: 401, message: `Incorrect API key provided: ${key}` }]);
      const err = asProviderError(await errorOf(aiSdkProvider(on(s, key))));
      expect(s.requests).toHaveLength(1);
      expect(err.status).toBe(401);
      expect(err.message).toMatch(/^Provider 'fixture\.chat' failed \(HTTP 401\): Incorrect API key provided: /);
      expect(JSON.stringify({ message: err.message, stack: err.stack, cause: err.cause })).not.toContain(key);
    });

    it('a 429 is retried (maxRetries, default 2) and a retry that answers is no failure', async () => {
      const s = await serve([{ kind: 'http-error', status: 429, message: 'slow down' }, { kind: 'reply', text: 'fine' }]);
      const events = await eventsOf(aiSdkProvider(on(s)));
      expect(events[0]).toEqual({ type: 'text-delta', text: 'fine' });
      expect(s.requests).toHaveLength(2);
    });

    it('a 500 that fails every attempt reports the first failure and the last', async () => {
      const s = await serve([
        { kind: 'http-error', status: 500, message: 'boom' },
        { kind: 'http-error', status: 503, message: 'down' },
      ]);
      const err = asProviderError(await errorOf(aiSdkProvider(on(s), { maxRetries: 1 })));
      expect(s.requests).toHaveLength(2);
      expect(err.status).toBe(500);
      expect(err.message).toBe("Provider 'fixture.chat' failed (HTTP 500): boom (the retry failed too, the last with HTTP 503: down)");
    });

    it('maxRetries: 0 sends one request', async () => {
      const s = await serve([{ kind: 'http-error', status: 500, message: 'boom' }]);
      const err = asProviderError(await errorOf(aiSdkProvider(on(s), { maxRetries: 0 })));
      expect(s.requests).toHaveLength(1);
      expect(err.message).toBe("Provider 'fixture.chat' failed (HTTP 500): boom");
    });
  });

  describe('Connection failures and broken streams', () => {
    it('a server that is not listening is a no-response error with the connection’s reason', async () => {
      const s = await serve([]);
      const model = on(s);
      await s.close();
      const err = asProviderError(await errorOf(aiSdkProvider(model, { maxRetries: 0 })));
      expect(err.status).toBeUndefined();
      expect(err.message).toMatch(/^Provider 'fixture\.chat' failed: no response from the server \(.*ECONNREFUSED.*\)\.$/);
    });

    it('a connection reset mid-stream fails after the text that did arrive', async () => {
      const step = { kind: 'reply', text: ['partial ', 'never seen'] } as const;
      const cut = eventOffset(replySse(step), 'never seen');
      const s = await serve([{ ...step, split: [cut], resetAfterBytes: cut + 10 }]);
      const notes = await lastValueFrom(aiSdkProvider(on(s)).request(userRequest(), new AbortController().signal).pipe(materialize(), toArray()));
      expect(notes.filter((n) => n.kind === 'N').map((n) => n.value)).toEqual([{ type: 'text-delta', text: 'partial ' }]);
      const err = asProviderError(notes.at(-1)?.error);
      expect(err.status).toBeUndefined();
      expect(err.message).toMatch(/^Provider 'fixture\.chat' failed: the connection was lost mid-stream/);
    });

    it('an error object sent inside the stream is reported with its message', async () => {
      const s = await serve([{ kind: 'raw', sse: 'data: {"error": {"message": "model crashed", "type": "server_error"}}\n\n' }]);
      const err = asProviderError(await errorOf(aiSdkProvider(on(s))));
      expect(err.message).toBe("Provider 'fixture.chat' failed: the server reported an error mid-stream: model crashed");
    });

    it('an event that is not JSON, after some text, is an error, not an answer', async () => {
      const s = await serve([{ kind: 'raw', sse: 'data: {"choices": [{"index": 0, "delta": {"content": "a"}}]}\n\ndata: {oops\n\n' }]);
      const err = asProviderError(await errorOf(aiSdkProvider(on(s))));
      expect(err.message).toMatch(/^Provider 'fixture\.chat' failed: the server reported an error mid-stream: /);
    });
  });
});

describe.each(MODELS)('Cancellation stops the HTTP stream of the real $label', ({ on }) => {
  it('aborting the signal mid-stream closes the connection, and the server sees the close', async () => {
    const s = await serve([stalled]);
    const { openAtText, notes } = await abortAfterFirstText(aiSdkProvider(on(s)), s);
    expect(openAtText).toBe(true);
    expect(s.requests[0].closedByClient).toBe(true);
    expect(notes.map((n) => n.kind)).toEqual(['N', 'E']);
    expect(asProviderError(notes[1].kind === 'E' ? notes[1].error : undefined).message).toBe("Provider 'fixture.chat' failed: the request was cancelled.");
  });

  it('unsubscribing mid-stream closes the connection', async () => {
    const s = await serve([stalled]);
    const { first, openAtFirst } = await unsubscribeAfterFirstEvent(aiSdkProvider(on(s)), s);
    expect(first).toEqual({ type: 'text-delta', text: 'first ' });
    expect(openAtFirst).toBe(true);
    expect(s.requests[0].closedByClient).toBe(true);
  });

  it('an already-aborted signal sends no request', async () => {
    const s = await serve([{ kind: 'reply', text: 'x' }]);
    const controller = new AbortController();
    controller.abort();
    const notes = await lastValueFrom(aiSdkProvider(on(s)).request(userRequest(), controller.signal).pipe(materialize(), toArray()));
    expect(asProviderError(notes.at(-1)?.error).message).toMatch(/cancelled/);
    expect(s.requests).toHaveLength(0);
  });
});
