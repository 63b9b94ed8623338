import OpenAI from 'openai';
import { lastValueFrom, materialize, toArray, type ObservableNotification } from 'rxjs';
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

/** What the cancellation helpers watch of a fixture server: its requests, and the client closing one. */
export interface ClosingServer {
  readonly requests: readonly { readonly closedByClient: boolean }[];
  clientClosed(n: number): Promise<void>;
}

/**
 * Runs a request whose stream sends a first text delta and then stalls; once that text came,
 * aborts the request's signal, then waits for the server to see the close and the stream to end.
 * Gives whether the connection was still open when the text came, and the stream's notifications.
 */
export async function abortAfterFirstText(
  provider: ModelProvider,
  server: ClosingServer,
): Promise<{ openAtText: boolean; notes: ObservableNotification<ProviderEvent>[] }> {
  const controller = new AbortController();
  const notes: ObservableNotification<ProviderEvent>[] = [];
  let sawText = (): void => undefined;
  const textArrived = new Promise<void>((resolve) => (sawText = resolve));
  const ended = new Promise<void>((resolve) =>
    provider
      .request(userRequest(), controller.signal)
      .pipe(materialize())
      .subscribe({
        next: (note) => {
          notes.push(note);
          if (note.kind === 'N' && note.value.type === 'text-delta') sawText();
        },
        complete: resolve,
      }),
  );
  await textArrived;
  const openAtText = !server.requests[0].closedByClient;
  controller.abort();
  await server.clientClosed(0);
  await ended;
  return { openAtText, notes };
}

/** The same stalled stream, unsubscribed after its first event: that event, and whether the connection was open at it. */
export async function unsubscribeAfterFirstEvent(provider: ModelProvider, server: ClosingServer): Promise<{ first: unknown; openAtFirst: boolean }> {
  let unsubscribe = (): void => undefined;
  const first = await new Promise<unknown>((resolve) => {
    const sub = provider.request(userRequest(), new AbortController().signal).subscribe((event) => resolve(event));
    unsubscribe = () => sub.unsubscribe();
  });
  const openAtFirst = !server.requests[0].closedByClient;
  unsubscribe();
  await server.clientClosed(0);
  return { first, openAtFirst };
}
