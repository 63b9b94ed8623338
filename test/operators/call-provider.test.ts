import { Observable, Subject, firstValueFrom, from, lastValueFrom, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, ProviderError, type ModelProvider, type ProviderEvent } from '../../src/index.js';
import { buildRequest, callProvider, createTurnState } from '../../src/operators.js';
import type { TurnEvent } from '../../src/index.js';

/** Provider events as a synchronous stream. */
const stream = (...events: ProviderEvent[]) => from(events);

/** A provider whose single request streams `events$`, recording its signal and subscriptions. */
function providerOf(events$: Observable<ProviderEvent>) {
  const seen = { signal: undefined as AbortSignal | undefined, subscribed: 0, unsubscribed: 0 };
  const provider: ModelProvider = {
    name: 'fake',
    nativeTools: true,
    request: (_req, signal) =>
      new Observable<ProviderEvent>((subscriber) => {
        seen.signal = signal;
        seen.subscribed++;
        const sub = events$.subscribe(subscriber);
        return () => {
          seen.unsubscribed++;
          sub.unsubscribe();
        };
      }),
  };
  return { provider, seen };
}

function turnFor(provider: ModelProvider, signal?: AbortSignal) {
  const { resolved } = createAgent({ provider, model: 'm', tools: [] });
  const events: TurnEvent[] = [];
  const turn = createTurnState(resolved, { message: 'hi', signal }, (e) => events.push(e));
  turn.iteration = 1;
  return { resolved, turn, events, call: () => callProvider(resolved, turn, buildRequest(resolved, turn)) };
}

describe('callProvider: one request, its stream assembled into a response', () => {
  it('joins text deltas, collects tool calls and the finish reason; deltas and usage go out as turn events', async () => {
    const { provider } = providerOf(
      stream(
        { type: 'text-delta', text: 'Let ' },
        { type: 'text-delta', text: '' },
        { type: 'text-delta', text: 'me.' },
        { type: 'tool-call', id: 'c', name: 'x', arguments: '{}' },
        { type: 'usage', inputTokens: 3, outputTokens: 4 },
        { type: 'finish', reason: 'tool_calls' },
      ),
    );
    const { call, events } = turnFor(provider);
    const response = await lastValueFrom(call());
    expect(response).toEqual({
      text: 'Let me.',
      toolCalls: [{ type: 'tool-call', id: 'c', name: 'x', arguments: '{}' }],
      finishReason: 'tool_calls',
      cancelled: false,
    });
    expect(events).toEqual([
      { type: 'text-delta', iteration: 1, text: 'Let ' },
      { type: 'text-delta', iteration: 1, text: 'me.' },
      { type: 'usage', inputTokens: 3, outputTokens: 4 },
    ]);
  });

  it('a provider failure becomes a ProviderError naming the provider and the HTTP status', async () => {
    const failure = Object.assign(new Error('overloaded'), { status: 503 });
    const { call } = turnFor(providerOf(throwError(() => failure)).provider);
    const err = await lastValueFrom(call()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ status: 503, message: "Provider 'fake' failed (HTTP 503): overloaded", cause: failure });
  });

  it('a ToolLoopError from the provider passes through unchanged', async () => {
    const original = new ProviderError('already typed');
    const { call } = turnFor(providerOf(throwError(() => original)).provider);
    await expect(lastValueFrom(call())).rejects.toBe(original);
  });
});

describe("callProvider: cancellation aborts the provider's signal and tears its stream down", () => {
  it('the turn signal aborting mid-stream ends with a cancelled response that keeps nothing', async () => {
    const stream = new Subject<ProviderEvent>();
    const { provider, seen } = providerOf(stream);
    const ac = new AbortController();
    const { call } = turnFor(provider, ac.signal);
    const response = firstValueFrom(call());
    stream.next({ type: 'text-delta', text: 'partial' });
    stream.next({ type: 'tool-call', id: 'c', name: 'x', arguments: {} });
    ac.abort();
    expect(await response).toEqual({ text: '', toolCalls: [], finishReason: undefined, cancelled: true });
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.unsubscribed).toBe(1);
    expect(stream.observed).toBe(false);
  });

  it('a turn already cancelled never sends the request', async () => {
    const { provider, seen } = providerOf(stream({ type: 'finish' }));
    const ac = new AbortController();
    ac.abort();
    const { call } = turnFor(provider, ac.signal);
    expect((await lastValueFrom(call())).cancelled).toBe(true);
    expect(seen.subscribed).toBe(0);
  });

  it('unsubscribing aborts the signal and unsubscribes the stream', () => {
    const stream = new Subject<ProviderEvent>();
    const { provider, seen } = providerOf(stream);
    const { call } = turnFor(provider);
    call().subscribe().unsubscribe();
    expect(seen.signal?.aborted).toBe(true);
    expect(stream.observed).toBe(false);
  });

  it('a response that completed leaves its signal alone', async () => {
    const { provider, seen } = providerOf(stream({ type: 'text-delta', text: 'ok' }, { type: 'finish' }));
    const { call } = turnFor(provider);
    await lastValueFrom(call());
    expect(seen.signal?.aborted).toBe(false);
  });
});
