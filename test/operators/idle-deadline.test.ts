import { Observable, type ObservableNotification } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, ProviderError, type ModelProvider, type ProviderEvent } from '../../src/index.js';
import { buildRequest, callProvider, createTurnContext, idleDeadline, iterationContext, startSnapshot } from '../../src/operators.js';
import { createTestScheduler } from '../../src/testing/index.js';
import { idleMessage } from '../../src/request/call-provider.js';

const silent = () => new Error('silent');

describe('idleDeadline: a stream silent for ms fails, in virtual time', () => {
  it('fails ms frames after the last value, and tears the source down', () => {
    createTestScheduler(expect).run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-----------');
      expectObservable(source.pipe(idleDeadline(5, silent))).toBe('-a-b----#', undefined, new Error('silent'));
      expectSubscriptions(source.subscriptions).toBe('^-------!');
    });
  });

  it('a stream silent from the start fails ms frames after the subscription', () => {
    createTestScheduler(expect).run(({ cold, expectObservable }) => {
      expectObservable(cold('--------').pipe(idleDeadline(3, silent))).toBe('---#', undefined, new Error('silent'));
    });
  });

  it('a value within every ms keeps it alive to the end; completion and errors pass, and no deadline comes after', () => {
    createTestScheduler(expect).run(({ cold, expectObservable }) => {
      expectObservable(cold('-a---b---c---|').pipe(idleDeadline(5, silent))).toBe('-a---b---c---|');
      expectObservable(cold('-a---#', undefined, new Error('boom')).pipe(idleDeadline(5, silent))).toBe('-a---#', undefined, new Error('boom'));
      expectObservable(cold('-a|').pipe(idleDeadline(5, silent)), '^----------!').toBe('-a|');
    });
  });

  it('unsubscribing stops the deadline and tears the source down', () => {
    createTestScheduler(expect).run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a--------');
      expectObservable(source.pipe(idleDeadline(5, silent)), '^--!').toBe('-a-');
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });
});

/** A provider whose every request streams `events` (marbles, in the scheduler's time), recording its signals. */
function providerOf(events: () => Observable<ProviderEvent>) {
  const signals: AbortSignal[] = [];
  const provider: ModelProvider = {
    name: 'slow',
    nativeTools: true,
    request: (_req, signal) =>
      new Observable<ProviderEvent>((subscriber) => {
        signals.push(signal);
        return events().subscribe(subscriber);
      }),
  };
  return { provider, signals };
}

describe("callProvider: knobs.providerIdleTimeoutMs, in virtual time", () => {
  it('a stream that stalls fails with a ProviderError ms after its last event, and its signal aborts', () => {
    const scheduler = createTestScheduler(expect);
    scheduler.run(({ cold, flush }) => {
      const t = { type: 'text-delta', text: 'x' } as const;
      const { provider, signals } = providerOf(() => cold<ProviderEvent>('-t--t------', { t }));
      const { resolved } = createAgent({ provider, model: 'm', tools: [], knobs: { providerIdleTimeoutMs: 5 } });
      const turn = createTurnContext(resolved, { message: 'hi' });
      const it = iterationContext(turn, { ...startSnapshot(turn, { message: 'hi' }), iteration: 1 });
      const seen: [number, ObservableNotification<unknown>['kind'], unknown][] = [];
      callProvider(it, buildRequest(it)).subscribe({
        next: (v) => seen.push([scheduler.now(), 'N', (v as { type?: string }).type]),
        error: (err: unknown) => seen.push([scheduler.now(), 'E', err]),
      });
      flush();
      expect(seen.map(([at, kind]) => [at, kind])).toEqual([
        [1, 'N'],
        [4, 'N'],
        [9, 'E'],
      ]);
      const err = seen[2][2];
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as Error).message).toBe(idleMessage('slow', 5));
      expect(signals[0].aborted).toBe(true);
    });
  });

  it('a stream that ends in time leaves no deadline behind', () => {
    const scheduler = createTestScheduler(expect);
    scheduler.run(({ cold, flush }) => {
      const t = { type: 'text-delta', text: 'x' } as const;
      const { provider } = providerOf(() => cold<ProviderEvent>('-t---t---|', { t }));
      const { resolved } = createAgent({ provider, model: 'm', tools: [], knobs: { providerIdleTimeoutMs: 5 } });
      const turn = createTurnContext(resolved, { message: 'hi' });
      const it = iterationContext(turn, { ...startSnapshot(turn, { message: 'hi' }), iteration: 1 });
      const kinds: string[] = [];
      callProvider(it, buildRequest(it)).subscribe({ next: () => kinds.push('N'), error: () => kinds.push('E'), complete: () => kinds.push('C') });
      flush();
      expect(kinds).toEqual(['N', 'N', 'N', 'C']); // two deltas, the response
      expect(scheduler.now()).toBe(9); // nothing was left scheduled after the end
    });
  });
});
