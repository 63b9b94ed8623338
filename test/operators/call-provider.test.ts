import { Observable, Subject, filter, from, lastValueFrom, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, isTurnEvent, ProviderError, type ModelProvider, type ProviderEvent } from '../../src/index.js';
import { buildRequest, callProvider, createTurnContext, iterationContext, startSnapshot, type ModelResponse } from '../../src/operators.js';

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
  const turn = createTurnContext(resolved, { message: 'hi', signal });
  const it = iterationContext(turn, { ...startSnapshot(turn, { message: 'hi' }), iteration: 1 });
  const call = () => callProvider(it, buildRequest(it));
  /** The response alone: the last value, which is never an event. */
  const response = () => lastValueFrom(call().pipe(filter((v): v is ModelResponse => !isTurnEvent(v))));
  return { resolved, turn, it, call, response };
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
    const { call } = turnFor(provider);
    const values = await lastValueFrom(call().pipe(toArray()));
    expect(values).toEqual([
      { type: 'text-delta', iteration: 1, text: 'Let ' },
      { type: 'text-delta', iteration: 1, text: 'me.' },
      { type: 'usage', inputTokens: 3, outputTokens: 4 },
      {
        text: 'Let me.',
        toolCalls: [{ type: 'tool-call', id: 'c', name: 'x', arguments: '{}' }],
        finishReason: 'tool_calls',
        cancelled: false,
        usage: { inputTokens: 3, outputTokens: 4 },
      },
    ]);
    expect(values.filter(isTurnEvent)).toHaveLength(3);
  });

  it('usage reported in several parts is summed on the response; without any it is zeros', async () => {
    const twice = providerOf(
      stream({ type: 'usage', inputTokens: 1, outputTokens: 2 }, { type: 'usage', inputTokens: 10, outputTokens: 20 }, { type: 'finish' }),
    );
    expect((await turnFor(twice.provider).response()).usage).toEqual({ inputTokens: 11, outputTokens: 22 });
    const none = providerOf(stream({ type: 'text-delta', text: 'x' }, { type: 'finish' }));
    expect((await turnFor(none.provider).response()).usage).toEqual({ inputTokens: 0, outputTokens: 0 });
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
  it('the turn signal aborting mid-stream ends with a cancelled response that keeps the streamed text and drops the calls', async () => {
    const stream = new Subject<ProviderEvent>();
    const { provider, seen } = providerOf(stream);
    const ac = new AbortController();
    const { call } = turnFor(provider, ac.signal);
    const values = lastValueFrom(call().pipe(toArray()));
    stream.next({ type: 'text-delta', text: 'partial' });
    stream.next({ type: 'tool-call', id: 'c', name: 'x', arguments: {} });
    ac.abort();
    expect(await values).toEqual([
      { type: 'text-delta', iteration: 1, text: 'partial' },
      { text: 'partial', toolCalls: [], finishReason: undefined, cancelled: true, usage: { inputTokens: 0, outputTokens: 0 } },
    ]);
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.unsubscribed).toBe(1);
    expect(stream.observed).toBe(false);
  });

  it('a turn already cancelled never sends the request', async () => {
    const { provider, seen } = providerOf(stream({ type: 'finish' }));
    const ac = new AbortController();
    ac.abort();
    const { call } = turnFor(provider, ac.signal);
    const values = await lastValueFrom(call().pipe(toArray()));
    expect(values).toEqual([{ text: '', toolCalls: [], finishReason: undefined, cancelled: true, usage: { inputTokens: 0, outputTokens: 0 } }]);
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
    const { response } = turnFor(provider);
    expect((await response()).cancelled).toBe(false);
    expect(seen.signal?.aborted).toBe(false);
  });
});
