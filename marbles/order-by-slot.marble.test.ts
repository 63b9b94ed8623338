import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { orderBySlot } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';

const s0 = { slot: 0, v: 'a' };
const s1 = { slot: 1, v: 'b' };
const s2 = { slot: 2, v: 'c' };
const s3 = { slot: 3, v: 'd' };
const values = { a: s0, b: s1, c: s2, d: s3 };

describe('orderBySlot re-emits items in slot order, each as soon as every lower slot has gone out', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('holds an item until the slots before it arrive', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('--c-a---b----|', values);
      const subs =        '^------------!';
      const expected =    '----a---(bc)-|';
      expectObservable(source.pipe(orderBySlot())).toBe(expected, values);
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('passes turn events in the same stream straight through, holding only the slot items', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const e = { type: 'tool-call', iteration: 1, slot: 2, id: 'c2', name: 'x', args: {}, executes: true } as const;
      const mixed = { ...values, e };
      const source = cold('-e-c-e-a-(b|) ', mixed);
      const expected =    '-e---e-a-(bc|)';
      expectObservable(source.pipe(orderBySlot())).toBe(expected, mixed);
    });
  });

  it('passes items that already arrive in order straight through', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-b-c-d|', values);
      const expected =    '-a-b-c-d|';
      expectObservable(source.pipe(orderBySlot())).toBe(expected, values);
    });
  });

  it('releases a whole run of held items at once when the missing slot arrives', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-d-c-b-a------|', values);
      const expected =    '-------(abcd)-|';
      expectObservable(source.pipe(orderBySlot())).toBe(expected, values);
    });
  });

  it('forwards an error and unsubscribes from the source', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-b-a---#', values, new Error('boom'));
      const subs =        '^------!';
      const expected =    '---(ab)#';
      expectObservable(source.pipe(orderBySlot())).toBe(expected, values, new Error('boom'));
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('unsubscribing from the result unsubscribes from the source', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-b---a---|', values);
      const unsub =       '---!      ';
      const subs =        '^--!      ';
      expectObservable(source.pipe(orderBySlot()), unsub).toBe('----', values);
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('each subscription orders on its own (no state shared between subscribers)', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-b-a----|', values);
      const expected =    '---(ab)-|';
      const ordered = source.pipe(orderBySlot());
      expectObservable(ordered).toBe(expected, values);
      expectObservable(ordered).toBe(expected, values);
    });
  });
});
