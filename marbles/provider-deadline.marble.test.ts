import { catchError, map, type Observable, of, timer, toArray } from 'rxjs';
import { z } from 'zod';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, DEFAULT_KNOBS, defineTool, ProviderError, resolveKnobs, type ModelProvider, type ProviderEvent } from '../src/index.js';
import { buildRequest, callProvider } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';
import { finish, text, toolCall } from './turn-harness.js';
import { codes, stage } from './operator-harness.js';

/** Issue 16, item 16: a provider stream that goes quiet for `providerIdleTimeoutMs` fails the request. */

const provider = (events$: () => Observable<ProviderEvent>, signals: AbortSignal[] = []): ModelProvider => ({
  name: 'quiet',
  nativeTools: true,
  request: (_req, signal) => (signals.push(signal), events$()),
});

const failure = (err: unknown) => of(err instanceof ProviderError ? `ProviderError: ${err.message}` : `other: ${String(err)}`);
const idle = (ms: number) => `ProviderError: Provider 'quiet' sent no event for ${ms} ms (knobs.providerIdleTimeoutMs): the request was abandoned.`;

describe('knobs.providerIdleTimeoutMs', () => {
  it('defaults to 120,000 ms; 0 and negative values fall back to it; NaN, fractions and values past the timer limit are refused', () => {
    expect(DEFAULT_KNOBS.providerIdleTimeoutMs).toBe(120_000);
    for (const value of [undefined, 0, -5]) {
      expect(resolveKnobs({ providerIdleTimeoutMs: value }).providerIdleTimeoutMs).toBe(120_000);
    }
    // the idle deadline is what keeps a silent stream from hanging the turn: it has no "none"
    for (const value of [Number.NaN, 2.5, 2 ** 31, Number.POSITIVE_INFINITY]) {
      expect(() => resolveKnobs({ providerIdleTimeoutMs: value })).toThrow(ConfigurationError);
    }
    expect(resolveKnobs({ providerIdleTimeoutMs: 2_500 }).providerIdleTimeoutMs).toBe(2_500);
  });
});

describe('a provider stream with no event for the idle deadline fails with a ProviderError', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('a stream that never sends anything fails at the deadline, and its subscription and signal end', () => {
    const signals: AbortSignal[] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const response$ = cold<ProviderEvent>('-');
      const { it: iteration } = stage({ provider: provider(() => response$, signals), knobs: { providerIdleTimeoutMs: 5 } });
      expectObservable(codes(callProvider(iteration, buildRequest(iteration))).pipe(catchError(failure))).toBe('-----(e|)', { e: idle(5) });
      expectSubscriptions(response$.subscriptions).toBe('^----!');
    });
    expect(signals.map((s) => s.aborted)).toEqual([true]);
  });

  it('a stream that goes quiet after some text fails one deadline after its last event', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const response$ = cold<ProviderEvent>('-a--b-', { a: text('he'), b: text('llo ') });
      const { it: iteration } = stage({ provider: provider(() => response$), knobs: { providerIdleTimeoutMs: 3 } });
      expectObservable(codes(callProvider(iteration, buildRequest(iteration))).pipe(catchError(failure))).toBe('-a--b--(e|)', {
        a: 'text he',
        b: 'text llo ',
        e: idle(3),
      });
      expectSubscriptions(response$.subscriptions).toBe('^------!');
    });
  });

  it('a tool-call delta resets the deadline like a text delta does; a stream that never completes after finish still fails', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const response$ = cold<ProviderEvent>('--c--c--f', { c: toolCall('x'), f: finish });
      const { it: iteration } = stage({ provider: provider(() => response$), knobs: { providerIdleTimeoutMs: 3 } });
      expectObservable(codes(callProvider(iteration, buildRequest(iteration))).pipe(catchError(failure))).toBe('-----------(e|)', { e: idle(3) });
    });
  });

  it('a slow stream whose gaps stay under the deadline completes normally', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const response$ = cold<ProviderEvent>('--a--b--(f|)', { a: text('one '), b: text('two'), f: finish });
      const { it: iteration } = stage({ provider: provider(() => response$), knobs: { providerIdleTimeoutMs: 3 } });
      const out$ = codes(callProvider(iteration, buildRequest(iteration))).pipe(catchError(failure));
      expectObservable(out$).toBe('--a--b--(r|)', { a: 'text one ', b: 'text two', r: expect.stringContaining('"text":"one two"') } as never);
    });
  });

  it('the default deadline is two minutes of virtual time', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const response$ = cold<ProviderEvent>('-');
      const { it: iteration } = stage({ provider: provider(() => response$) });
      expectObservable(codes(callProvider(iteration, buildRequest(iteration))).pipe(catchError(failure))).toBe('2m (e|)', { e: idle(120_000) });
    });
  });

  const echo = defineTool({ name: 'echo', description: 'e', parameters: z.object({}), execute: () => 'ok' });

  /** A turn with `tool` (by default `echo`) whose requests get `streams` in turn: each event as `frame type`, then the failure at its frame. */
  const turnOver = (streams: Observable<ProviderEvent>[], ms: number, tool = echo): Observable<string[]> => {
    const agent = createAgent({ provider: provider(() => streams.shift()!), model: 'm', tools: [tool], knobs: { providerIdleTimeoutMs: ms } });
    return agent.run({ message: 'go' }).pipe(
      map((e) => `${scheduler.now()} ${e.type}`),
      catchError((err: unknown) => of(`${scheduler.now()} ${err instanceof ProviderError ? err.message : 'other'}`)),
      toArray(),
    );
  };

  it('each request of a turn has its own deadline, counted from its own start', () => {
    scheduler.run(({ cold, expectObservable }) => {
      // the first request ends at 3; the second sends nothing: it fails at 3 + 4, not at the first's 0 + 4
      const out$ = turnOver([cold<ProviderEvent>('-c-(f|)', { c: toolCall('echo'), f: finish }), cold<ProviderEvent>('-')], 4);
      expectObservable(out$).toBe('-------(a|)', {
        a: ['0 iteration', '3 tool-call', '3 tool-result', '3 iteration', `7 ${idle(4).slice('ProviderError: '.length)}`],
      });
    });
  });

  it('a tool round longer than the deadline fails nothing: the next request gets a whole deadline from its own start', () => {
    scheduler.run(({ cold, expectObservable }) => {
      // the first request's deadline ends with it at 3, while the tool runs until 9; the second request's starts at 9
      const slow = defineTool({ name: 'slow', description: 's', parameters: z.object({}), execute: () => timer(6).pipe(map(() => 'ok')) });
      const out$ = turnOver([cold<ProviderEvent>('-c-(f|)', { c: toolCall('slow'), f: finish }), cold<ProviderEvent>('-')], 4, slow);
      expectObservable(out$).toBe('-------------(a|)', {
        a: ['0 iteration', '3 tool-call', '9 tool-result', '9 iteration', `13 ${idle(4).slice('ProviderError: '.length)}`],
      });
    });
  });

  it('a whole turn errors with the ProviderError after a tool round when the next request goes quiet', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const out$ = turnOver([cold<ProviderEvent>('-c(f|)', { c: toolCall('echo'), f: finish }), cold<ProviderEvent>('-a', { a: text('thinking ') })], 4);
      expectObservable(out$).toBe('-------(a|)', {
        a: ['0 iteration', '2 tool-call', '2 tool-result', '2 iteration', '3 text-delta', `7 ${idle(4).slice('ProviderError: '.length)}`],
      });
    });
  });
});
