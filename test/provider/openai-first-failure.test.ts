import { afterEach, describe, expect, it } from 'vitest';
import { openAIChatProvider, ProviderError } from '../../src/index.js';
import { startOpenAIServer, type OpenAIServer, type ServerStep } from '../fixtures/openai-server.js';
import { clientFor, errorOf, eventsOf, userRequest } from './helpers.js';

let server: OpenAIServer | undefined;
const serve = async (script: readonly ServerStep[] | ((body: any, n: number) => ServerStep)) => (server = await startOpenAIServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const asProviderError = (err: unknown): ProviderError => {
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
};

// A mock server with one reply per request: the failed first request used it up, so every retry
// gets "no route" (404), which is what the client used to report.
const ranOut = (first: ServerStep) => (_body: unknown, n: number): ServerStep =>
  n === 0 ? first : { kind: 'http-error', status: 404, message: 'No more scripted replies' };

describe('a request the client retries reports its first failure', () => {
  it('a streaming request failed with 500, then 404s: the error is the 500, the 404 noted', async () => {
    const s = await serve(ranOut({ kind: 'http-error', status: 500, message: 'streaming is not supported with tools' }));
    const err = asProviderError(await errorOf(openAIChatProvider(clientFor(s, 2))));
    expect(s.requests.map((r) => r.body.stream)).toEqual([true, true]); // 404 is not retried again
    expect(err.status).toBe(500);
    expect(err.message).toBe(
      "Provider 'openai-chat' failed (HTTP 500): streaming is not supported with tools (the retry failed too, the last with HTTP 404: No more scripted replies)",
    );
  });

  it('a connection reset first: the error says no response, not the later 404', async () => {
    const s = await serve(ranOut({ kind: 'reset' }));
    const err = asProviderError(await errorOf(openAIChatProvider(clientFor(s, 2))));
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(/^Provider 'openai-chat' failed: no response from the server \(.+\)\. \(the retry failed too, the last with HTTP 404: No more scripted replies\)$/);
  });

  it('the same failure on every attempt is reported once, after all the retries', async () => {
    const s = await serve(() => ({ kind: 'http-error', status: 502, message: 'bad gateway' }));
    const err = asProviderError(await errorOf(openAIChatProvider(clientFor(s, 2))));
    expect(s.requests).toHaveLength(3);
    expect(err.message).toBe("Provider 'openai-chat' failed (HTTP 502): bad gateway");
  });

  it('a non-streaming request is retried the same way and succeeds on a retry', async () => {
    const s = await serve([{ kind: 'http-error', status: 500 }, { kind: 'reply', text: 'fine' }]);
    const events = await eventsOf(openAIChatProvider(clientFor(s, 1), { stream: false }));
    expect(events[0]).toEqual({ type: 'text-delta', text: 'fine' });
    expect(s.requests.map((r) => r.body.stream)).toEqual([false, false]);
  });

  it('x-should-retry: false stops the retries at once', async () => {
    const s = await serve(ranOut({ kind: 'http-error', status: 503, message: 'down', headers: { 'x-should-retry': 'false' } }));
    const err = asProviderError(await errorOf(openAIChatProvider(clientFor(s, 2))));
    expect(s.requests).toHaveLength(1);
    expect(err.message).toBe("Provider 'openai-chat' failed (HTTP 503): down");
  });

  it('cancelling while it waits to retry ends the request as cancelled, without another attempt', async () => {
    const s = await serve(ranOut({ kind: 'http-error', status: 503, message: 'later', headers: { 'retry-after-ms': '600000' } }));
    const controller = new AbortController();
    const provider = openAIChatProvider(clientFor(s, 2));
    const failed = new Promise<unknown>((resolve) => provider.request(userRequest(), controller.signal).subscribe({ error: resolve }));
    await s.received(0);
    controller.abort();
    const err = asProviderError(await failed);
    expect(err.message).toMatch(/cancelled/);
    expect(s.requests).toHaveLength(1);
  });
});
