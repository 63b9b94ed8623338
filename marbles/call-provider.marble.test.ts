import { catchError, of } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ModelProvider, ProviderEvent } from '../src/index.js';
import { buildRequest, callProvider } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';
import { finish, text, toolCall } from './turn-harness.js';
import { codes, stage } from './operator-harness.js';

const provider = (events$: () => import('rxjs').Observable<ProviderEvent>, signals: AbortSignal[] = []): ModelProvider => ({
  name: 'cold',
  nativeTools: true,
  request: (_req, signal) => (signals.push(signal), events$()),
});

describe('callProvider streams a response: text deltas as events while they arrive, then the response', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('emits text-delta and usage events in time, then the assembled response', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const usage: ProviderEvent = { type: 'usage', inputTokens: 3, outputTokens: 2 };
      const response$ = cold<ProviderEvent>('-a-b-uc(f|)', { a: text('he'), b: text('llo'), u: usage, c: toolCall('x'), f: finish });
      const { it: iteration } = stage({ provider: provider(() => response$) });
      const out$ = callProvider(iteration, buildRequest(iteration));
      expectObservable(codes(out$)).toBe('-a-b-u-(r|)', { a: 'text he', b: 'text llo', u: 'usage', r: JSON.stringify(responseOf('hello', 1)) });
      expectSubscriptions(response$.subscriptions).toBe('^------!');
    });
  });

  it("the turn's cancel tears the stream down, aborts the provider's signal and keeps the text so far", () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const response$ = cold<ProviderEvent>('-a----c(f|)', { a: text('he'), c: toolCall('x'), f: finish });
      cold('---x').subscribe(() => controller.abort());
      const { it: iteration } = stage({ provider: provider(() => response$, signals), signal: controller.signal });
      expectObservable(codes(callProvider(iteration, buildRequest(iteration)))).toBe('-a-(r|)', {
        a: 'text he',
        r: JSON.stringify({ text: 'he', toolCalls: [], cancelled: true, usage: { inputTokens: 0, outputTokens: 0 } }),
      });
      expectSubscriptions(response$.subscriptions).toBe('^--!');
    });
    expect(signals.map((s) => s.aborted)).toEqual([true]);
  });

  it("unsubscribing aborts the provider's signal and emits nothing more", () => {
    const signals: AbortSignal[] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const response$ = cold<ProviderEvent>('-a----(f|)', { a: text('he'), f: finish });
      const { it: iteration } = stage({ provider: provider(() => response$, signals) });
      expectObservable(codes(callProvider(iteration, buildRequest(iteration))), '^-!').toBe('-a', { a: 'text he' });
      expectSubscriptions(response$.subscriptions).toBe('^-!');
    });
    expect(signals.map((s) => s.aborted)).toEqual([true]);
  });

  it("a provider that ignores its signal: the turn's cancel and unsubscribing tear its stream down alone", () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const cancelled$ = cold<ProviderEvent>('-a----c(f|)', { a: text('he'), c: toolCall('x'), f: finish });
      const dropped$ = cold<ProviderEvent>('-a----(f|)', { a: text('he'), f: finish });
      const streams = [cancelled$, dropped$];
      cold('---x').subscribe(() => controller.abort());
      const ignoring = (): ModelProvider => ({ ...provider(() => streams.shift()!, signals), ignoresSignal: true });
      const first = stage({ provider: ignoring(), signal: controller.signal }).it;
      expectObservable(codes(callProvider(first, buildRequest(first)))).toBe('-a-(r|)', {
        a: 'text he',
        r: JSON.stringify({ text: 'he', toolCalls: [], cancelled: true, usage: { inputTokens: 0, outputTokens: 0 } }),
      });
      const second = stage({ provider: ignoring() }).it;
      expectObservable(codes(callProvider(second, buildRequest(second))), '^-!').toBe('-a', { a: 'text he' });
      expectSubscriptions(cancelled$.subscriptions).toBe('^--!');
      expectSubscriptions(dropped$.subscriptions).toBe('^-!');
    });
    // one shared signal that never aborts: no AbortController per request
    expect(signals).toHaveLength(2);
    expect(signals[0]).toBe(signals[1]);
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
  });

  it('a provider that reads its signal gets a new one per request', () => {
    const signals: AbortSignal[] = [];
    scheduler.run(({ cold, expectObservable }) => {
      const response$ = cold<ProviderEvent>('-(f|)', { f: finish });
      const { it: iteration } = stage({ provider: provider(() => response$, signals) });
      const r = JSON.stringify({ text: '', toolCalls: [], finishReason: 'stop', cancelled: false, usage: { inputTokens: 0, outputTokens: 0 } });
      expectObservable(codes(callProvider(iteration, buildRequest(iteration)))).toBe('-(r|)', { r });
      expectObservable(codes(callProvider(iteration, buildRequest(iteration)))).toBe('-(r|)', { r });
    });
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
  });

  it('a failing stream becomes a ProviderError naming the provider', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const response$ = cold<ProviderEvent>('-a-#', { a: text('he') }, new Error('socket hang up'));
      const { it: iteration } = stage({ provider: provider(() => response$) });
      const out$ = codes(callProvider(iteration, buildRequest(iteration))).pipe(
        catchError((err: Error) => of(`${err.name}: ${err.message}`)),
      );
      expectObservable(out$).toBe('-a-(e|)', { a: 'text he', e: "ProviderError: Provider 'cold' failed: socket hang up" });
    });
  });
});

function responseOf(text: string, calls: number) {
  return {
    text,
    toolCalls: Array.from({ length: calls }, () => ({ type: 'tool-call', id: 'x', name: 'x', arguments: {} })),
    finishReason: 'stop',
    cancelled: false,
    usage: { inputTokens: 3, outputTokens: 2 },
  };
}
