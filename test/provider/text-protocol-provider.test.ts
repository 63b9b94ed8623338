import { getEventListeners } from 'node:events';
import type { TestScheduler } from 'rxjs/testing';
import { EMPTY, lastValueFrom, toArray } from 'rxjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { openAIChatProvider, textProtocolProvider, type ModelProvider, type ProviderEvent } from '../../src/index.js';
import { createTestScheduler } from '../../src/testing/index.js';
import { startOpenAIServer } from '../fixtures/openai-server.js';
import { clientFor, userRequest } from './helpers.js';

describe('textProtocolProvider passes the inner stream through unchanged', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('events keep their timing, and unsubscribing tears the inner stream down', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const values: Record<string, ProviderEvent> = {
        a: { type: 'text-delta', text: '<tool_' },
        b: { type: 'text-delta', text: 'call>{}' },
        f: { type: 'finish', reason: 'stop' },
      };
      const inner$ = cold('-a--b--f|', values);
      const inner: ModelProvider = { name: 'inner', nativeTools: false, request: () => inner$ };
      const wrapped = textProtocolProvider(inner);
      expectObservable(wrapped.request(userRequest(), new AbortController().signal)).toBe('-a--b--f|', values);
      expectObservable(wrapped.request(userRequest(), new AbortController().signal), '^----!').toBe('-a--b', values);
      expectSubscriptions(inner$.subscriptions).toBe(['^-------!', '^----!']);
    });
  });

  it('the request reaching the inner provider has no tools', async () => {
    const seen: unknown[] = [];
    const inner: ModelProvider = { name: 'inner', nativeTools: true, request: (req) => (seen.push(req), EMPTY) };
    const tools = [{ name: 'x', description: '', parameters: {} }];
    await lastValueFrom(textProtocolProvider(inner).request(userRequest({ tools }), new AbortController().signal).pipe(toArray()));
    expect(seen).toEqual([userRequest()]);
  });
});

describe('openAIChatProvider leaves no listener on the signal it was given', () => {
  it('after a completed request and after a failed one', async () => {
    const server = await startOpenAIServer([{ kind: 'reply', text: 'ok' }, { kind: 'http-error', status: 400 }]);
    try {
      const provider = openAIChatProvider(clientFor(server));
      const signal = new AbortController().signal;
      await lastValueFrom(provider.request(userRequest(), signal).pipe(toArray()));
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      await lastValueFrom(provider.request(userRequest(), signal)).catch(() => undefined);
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
