import { NEVER, Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestScheduler } from '../src/testing/index.js';
import { whenCancelled } from '../src/runtime/when-cancelled.js';

/** A stage that lives as long as `source` and calls back (with its state as `this`) when cancel$ emits. */
function listening(source: Observable<string>, cancel$: Observable<void>, seen: string[], onCancelled?: (this: { seen: string[] }) => void) {
  return new Observable<string>((subscriber) => {
    whenCancelled({ cancel$ }, subscriber, onCancelled, { seen });
    return source.subscribe(subscriber);
  });
}

function record(this: { seen: string[] }): void {
  this.seen.push('cancelled');
}

describe('whenCancelled: a callback on the turn cancel$, for as long as a Subscriber lives', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('calls back once, with its target as this, and passes no value or completion on', () => {
    const seen: string[] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions, flush }) => {
      const source = cold('-a-b-c-|');
      const cancel$ = cold<void>('--(x|)');
      expectObservable(listening(source, cancel$, seen, record)).toBe('-a-b-c-|');
      expectSubscriptions(cancel$.subscriptions).toBe('^-!');
      flush();
      expect(seen).toEqual(['cancelled']);
    });
  });

  it("stops listening when the Subscriber's life ends first", () => {
    const seen: string[] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions, flush }) => {
      const cancel$ = cold<void>('-----x');
      expectObservable(listening(cold('-a|'), cancel$, seen, record)).toBe('-a|');
      expectSubscriptions(cancel$.subscriptions).toBe('^-!');
      const later$ = cold<void>('-----x');
      expectObservable(listening(cold('-a-b'), later$, seen, record), '^--!').toBe('-a-');
      expectSubscriptions(later$.subscriptions).toBe('^--!');
      flush();
      expect(seen).toEqual([]);
    });
  });

  it('without a callback it only holds the subscription; the Subscription it answers stops it early', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const held = cold<void>('---x');
      expectObservable(listening(cold('-a---|'), held, [])).toBe('-a---|');
      expectSubscriptions(held.subscriptions).toBe('^----!');
      const cancel$ = hot<void>('----x');
      const seen: string[] = [];
      const early = new Observable<string>((subscriber) => {
        const listening = whenCancelled({ cancel$ }, subscriber, record, { seen });
        return cold('-a-b-|').subscribe({ next: (v) => (listening?.unsubscribe(), subscriber.next(v)), complete: () => subscriber.complete() });
      });
      expectObservable(early).toBe('-a-b-|');
      expectSubscriptions(cancel$.subscriptions).toBe('^!');
    });
  });

  it('what the callback throws errors the Subscriber', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const thrown = new Error('boom');
      const failing = function (this: { seen: string[] }): void {
        throw thrown;
      };
      expectObservable(listening(cold('-a---b|'), cold<void>('--x'), [], failing)).toBe('-a#', undefined, thrown);
    });
  });

  it('a turn that cannot be cancelled (cancel$ NEVER): nothing subscribed, no Subscription', () => {
    let answered: unknown = 'unset';
    new Observable<never>((subscriber) => {
      answered = whenCancelled({ cancel$: NEVER }, subscriber, record, { seen: [] });
      subscriber.complete();
    }).subscribe();
    expect(answered).toBeUndefined();
  });
});
