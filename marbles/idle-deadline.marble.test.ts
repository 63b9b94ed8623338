import { timeout, throwError } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { idleDeadline } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';

const boom = new Error('idle');

describe('idleDeadline fails a stream silent for ms, as timeout({ each }) does', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  for (const [name, op] of [
    ['timeout({ each })', () => timeout({ each: 5, with: () => throwError(() => boom) })],
    ['idleDeadline', () => idleDeadline(5, () => boom)],
  ] as const) {
    it(`${name}: fails 5 frames after the last value and tears the source down`, () => {
      scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold('-a-b----------c|');
        expectObservable(source.pipe(op() as never)).toBe('-a-b----#', undefined, boom);
        expectSubscriptions(source.subscriptions).toBe('^-------!');
      });
    });

    it(`${name}: a stream that keeps talking, or completes in time, never fails`, () => {
      scheduler.run(({ cold, expectObservable }) => {
        expectObservable(cold('-a---b---c---d|').pipe(op() as never)).toBe('-a---b---c---d|');
        expectObservable(cold('----|').pipe(op() as never)).toBe('----|');
      });
    });

    it(`${name}: silence from the start fails at the deadline`, () => {
      scheduler.run(({ cold, expectObservable }) => {
        expectObservable(cold('----------a|').pipe(op() as never)).toBe('-----#', undefined, boom);
      });
    });
  }
});
