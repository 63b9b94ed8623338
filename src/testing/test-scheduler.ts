import { deepStrictEqual } from 'node:assert';
import { TestScheduler } from 'rxjs/testing';

/** The part of vitest's (or jest's) `expect` the scheduler uses. */
export type ExpectLike = (actual: unknown) => { toEqual(expected: unknown): void };

/**
 * A fresh TestScheduler for marble tests. Pass vitest's `expect` to get its diffs (the
 * assertion is `expect(actual).toEqual(expected)`); without it, node:assert's deep equality
 * is used, so the helper carries no test-runner dependency.
 *
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * let scheduler: TestScheduler;
 * beforeEach(() => { scheduler = createTestScheduler(expect); });
 * it('…', () => scheduler.run(({ cold, expectObservable }) => { … }));
 * ```
 */
export function createTestScheduler(expect?: ExpectLike): TestScheduler {
  return new TestScheduler((actual, expected) => {
    if (expect) expect(actual).toEqual(expected);
    else deepStrictEqual(actual, expected);
  });
}
