import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedMap, DEFAULT_MAX_SCOPES } from '../../src/core/bounded-map.js';

/** The rule, written the plain way: entries oldest first; a read or a write makes one the newest. */
class ModelLru {
  entries: [string, number][] = [];
  constructor(readonly max: number) {}
  #at(key: string): number {
    return this.entries.findIndex(([k]) => k === key);
  }
  get(key: string): number | undefined {
    const at = this.#at(key);
    if (at < 0) return undefined;
    const [entry] = this.entries.splice(at, 1);
    this.entries.push(entry);
    return entry[1];
  }
  peek(key: string): number | undefined {
    const at = this.#at(key);
    return at < 0 ? undefined : this.entries[at][1];
  }
  set(key: string, value: number): void {
    const at = this.#at(key);
    if (at >= 0) this.entries.splice(at, 1);
    this.entries.push([key, value]);
    while (this.entries.length > this.max) this.entries.shift();
  }
  delete(key: string): boolean {
    const at = this.#at(key);
    if (at < 0) return false;
    this.entries.splice(at, 1);
    return true;
  }
}

type Op =
  | { op: 'get' | 'peek' | 'has' | 'delete'; key: string }
  | { op: 'set'; key: string; value: number }
  | { op: 'getOrCreate'; key: string; value: number };

const keyArb = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constantFrom('get' as const, 'peek' as const, 'has' as const, 'delete' as const), key: keyArb }),
  fc.record({ op: fc.constant('set' as const), key: keyArb, value: fc.integer() }),
  fc.record({ op: fc.constant('getOrCreate' as const), key: keyArb, value: fc.integer() }),
);

describe('BoundedMap keeps at most `max` entries, least recently used dropped first', () => {
  it('answers every sequence of reads, writes and deletes as the plain model does, from its first entry (kept without a Map) on', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(opArb, { maxLength: 40 }), (max, ops) => {
        const map = new BoundedMap<string, number>(max);
        const model = new ModelLru(max);
        for (const step of ops) {
          switch (step.op) {
            case 'get':
              expect(map.get(step.key)).toBe(model.get(step.key));
              break;
            case 'peek':
              expect(map.peek(step.key)).toBe(model.peek(step.key));
              break;
            case 'has':
              expect(map.has(step.key)).toBe(model.peek(step.key) !== undefined);
              break;
            case 'delete':
              expect(map.delete(step.key)).toBe(model.delete(step.key));
              break;
            case 'set':
              expect(map.set(step.key, step.value)).toBe(map);
              model.set(step.key, step.value);
              break;
            case 'getOrCreate': {
              const before = model.get(step.key);
              if (before === undefined) model.set(step.key, step.value);
              expect(map.getOrCreate(step.key, () => step.value)).toBe(before ?? step.value);
              break;
            }
          }
          expect(map.size).toBe(model.entries.length);
        }
        // the order too: each key as the model has it, oldest first
        for (const [key, value] of model.entries) expect(map.peek(key)).toBe(value);
        const keys = ['a', 'b', 'c', 'd', 'e'].filter((k) => map.has(k));
        expect(keys.sort()).toEqual(model.entries.map(([k]) => k).sort());
      }),
      { numRuns: 500 },
    );
  });

  it('one entry, then a second: the first stays (and leaves first), with max 1 it goes', () => {
    const two = new BoundedMap<string, number>(2);
    two.set('a', 1);
    expect([two.size, two.get('a'), two.has('b')]).toEqual([1, 1, false]);
    two.set('b', 2);
    two.set('c', 3);
    expect([two.size, two.has('a'), two.peek('b'), two.peek('c')]).toEqual([2, false, 2, 3]);
    const one = new BoundedMap<string, number>(1);
    one.set('a', 1);
    one.set('b', 2);
    expect([one.size, one.has('a'), one.get('b')]).toEqual([1, false, 2]);
  });

  it('compares keys as a Map does (SameValueZero), one entry or more', () => {
    const map = new BoundedMap<number, string>(3);
    map.set(Number.NaN, 'nan');
    expect(map.get(Number.NaN)).toBe('nan');
    map.set(-0, 'zero');
    expect([map.get(0), map.get(Number.NaN), map.size]).toEqual(['zero', 'nan', 2]);
    const sole = new BoundedMap<number, string>(3);
    sole.set(0, 'zero');
    expect([sole.get(-0), sole.delete(-0), sole.size]).toEqual(['zero', true, 0]);
  });

  it('a max that is not a positive number falls back to the default', () => {
    for (const max of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(new BoundedMap(max).max).toBe(DEFAULT_MAX_SCOPES);
    expect(new BoundedMap(2.7).max).toBe(2);
  });
});
