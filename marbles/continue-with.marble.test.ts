import { of } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TurnEvent } from '../src/index.js';
import { continueWith } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';

const e1: TurnEvent = { type: 'iteration', iteration: 1 };
const e2: TurnEvent = { type: 'text-delta', iteration: 1, text: 'hi' };
const r = { value: 'r' };
const s = { value: 's' };

describe('continueWith joins two stages: events pass through, each result is replaced by the next stage', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('passes events as they come and continues the result with the projected stage', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b--r|', { a: e1, b: e2, r });
      const next = cold<TurnEvent | typeof s>('-b-s|', { b: e2, s });
      expectObservable(source.pipe(continueWith(() => next))).toBe('-a-b---b-s|', { a: e1, b: e2, s });
      expectSubscriptions(source.subscriptions).toBe('^------!');
      expectSubscriptions(next.subscriptions).toBe('------^---!');
    });
  });

  it('a projection that answers at once (of(result)) keeps its place among the events', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a--r-b|', { a: e1, b: e2, r });
      const expected = '-a--s-b|';
      expectObservable(source.pipe(continueWith(() => of(s)))).toBe(expected, { a: e1, b: e2, s });
      expectObservable(source.pipe(continueWith(() => cold('(s|)', { s })))).toBe(expected, { a: e1, b: e2, s });
    });
  });

  it('waits for the projected stage after the source completes', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('r|', { r });
      const next = cold<typeof s>('---s|', { s });
      expectObservable(source.pipe(continueWith(() => next))).toBe('---s|', { s });
    });
  });

  it('an error of the projected stage errors the result and unsubscribes the source', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('r----a|', { r, a: e1 });
      const next = cold<typeof s>('--#', {}, new Error('boom'));
      expectObservable(source.pipe(continueWith(() => next))).toBe('--#', {}, new Error('boom'));
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
  });

  it('a project that throws errors the result', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-r|', { a: e1, r });
      const boom = new Error('boom');
      expectObservable(
        source.pipe(
          continueWith(() => {
            throw boom;
          }),
        ),
      ).toBe('-a-#', { a: e1 }, boom);
    });
  });

  it('unsubscribing tears down the source and the projected stage (an unsubscription chain)', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('r-----a|', { r, a: e1 });
      const next = cold<typeof s>('-----s|', { s });
      expectObservable(source.pipe(continueWith(() => next)), '^--!').toBe('');
      expectSubscriptions(source.subscriptions).toBe('^--!');
      expectSubscriptions(next.subscriptions).toBe('^--!');
    });
  });
});
