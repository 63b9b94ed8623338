import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';

/**
 * A fresh TestScheduler whose assertions use vitest's `expect(...).toEqual`.
 *
 * @example
 * ```ts
 * let scheduler: TestScheduler;
 * beforeEach(() => { scheduler = createTestScheduler(); });
 * it('…', () => scheduler.run(({ cold, expectObservable }) => { … }));
 * ```
 */
export function createTestScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => {
    expect(actual).toEqual(expected);
  });
}
