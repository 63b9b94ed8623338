import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PreparedCall, TurnEvent } from '../src/index.js';
import { untilParked } from '../src/prep/until-parked.js';
import { createTestScheduler } from '../src/testing/index.js';

const call = (slot: number, paused = false): PreparedCall =>
  ({ slot, id: `c${slot}`, name: 'w', args: {}, ...(paused ? { paused: { id: `r${slot}` } } : {}) }) as unknown as PreparedCall;
const event: TurnEvent = { type: 'iteration', iteration: 1, model: 'm' };

describe('untilParked: takeWhile(not parked, inclusive) over prepared calls', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('passes events and calls; a parked call is the last value, then it completes and tears the source down', () => {
    scheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const values = { e: event, a: call(0), p: call(1, true), b: call(2) };
      const source = hot<TurnEvent | PreparedCall>('-e-a-p-b-|', values);
      expectObservable(source.pipe(untilParked())).toBe('-e-a-(p|)', values);
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('without a parked call it is the source itself: values, completion and errors pass', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const values = { e: event, a: call(0), b: call(1) };
      expectObservable(cold<TurnEvent | PreparedCall>('-e-a-b-|', values).pipe(untilParked())).toBe('-e-a-b-|', values);
      expectObservable(cold<TurnEvent | PreparedCall>('-a-#', values).pipe(untilParked())).toBe('-a-#', values);
    });
  });

  it('unsubscribing tears the source down', () => {
    scheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const values = { a: call(0), b: call(1) };
      const source = hot<TurnEvent | PreparedCall>('-a--b-|', values);
      expectObservable(source.pipe(untilParked()), '^--!').toBe('-a-', values);
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('a consumer that unsubscribes from the parked call itself is not completed after it', () => {
    const seen: string[] = [];
    scheduler.run(({ cold }) => {
      const sub = cold<TurnEvent | PreparedCall>('-a-p-b|', { a: call(0), p: call(1, true), b: call(2) })
        .pipe(untilParked())
        .subscribe({
          next: (v) => {
            seen.push((v as PreparedCall).id);
            if ((v as PreparedCall).paused) sub.unsubscribe();
          },
          complete: () => seen.push('complete'),
        });
    });
    expect(seen).toEqual(['c0', 'c1']);
  });
});
