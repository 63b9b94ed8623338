import { from, lastValueFrom, type Observable, Subscriber, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fromItems } from '../../src/runtime/from-items.js';

/** What a subscriber sees, and what it saw when it unsubscribed after the `stopAfter`-th item. */
function seen(source: Observable<number>, stopAfter = Infinity): unknown[] {
  const out: unknown[] = [];
  const subscriber: Subscriber<number> = new Subscriber({
    next: (v) => {
      out.push(v);
      if (out.length >= stopAfter) subscriber.unsubscribe();
    },
    error: (e: unknown) => out.push(`error ${String(e)}`),
    complete: () => out.push('done'),
  });
  source.subscribe(subscriber);
  return out;
}

describe("fromItems: RxJS's from(array) as a stage", () => {
  it('emits the items in order at once, then completes; every subscription reads the array anew', () => {
    const items = [1, 2, 3];
    const items$ = fromItems(items);
    expect(seen(items$)).toEqual(seen(from(items)));
    expect(seen(items$)).toEqual([1, 2, 3, 'done']);
    items.push(4);
    expect(seen(items$)).toEqual([1, 2, 3, 4, 'done']);
    expect(seen(fromItems([]))).toEqual(['done']);
  });

  it('a subscriber that unsubscribes from an item gets no more items and no completion, as with from', () => {
    expect(seen(fromItems([1, 2, 3]), 2)).toEqual(seen(from([1, 2, 3]), 2));
    expect(seen(fromItems([1, 2, 3]), 2)).toEqual([1, 2]);
  });

  it('composes with RxJS operators', async () => {
    expect(await lastValueFrom(fromItems([5, 6, 7]).pipe(take(2), toArray()))).toEqual([5, 6]);
  });
});
