import OpenAI from 'openai';
import { lastValueFrom, toArray } from 'rxjs';
import type { ModelProvider, ProviderEvent, ProviderRequest } from '../../src/index.js';
import type { OpenAIServer } from '../fixtures/openai-server.js';

/** A real `openai` client pointed at the fixture server (quiet logs, few retries). */
export const clientFor = (server: OpenAIServer, maxRetries = 0): OpenAI =>
  new OpenAI({ baseURL: server.baseURL, apiKey: 'test-key', maxRetries, logLevel: 'off' });

export const userRequest = (extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: 'fixture-model',
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

/** Every event of one provider request. */
export const eventsOf = (provider: ModelProvider, req: ProviderRequest = userRequest(), signal = new AbortController().signal) =>
  lastValueFrom(provider.request(req, signal).pipe(toArray()));

/** The error a provider request ends with (fails the test when it completes). */
export async function errorOf(provider: ModelProvider, req: ProviderRequest = userRequest()): Promise<unknown> {
  try {
    await eventsOf(provider, req);
  } catch (err) {
    return err;
  }
  throw new Error('the request completed; an error was expected');
}

/** The text and the other events of a response (argument deltas left out), for comparison. */
export const summary = (events: ProviderEvent[]) => ({
  text: events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join(''),
  rest: events.filter((e) => e.type !== 'text-delta' && e.type !== 'tool-call-delta'),
});
