import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, flatSortedJson } from '../../src/results/canonical-json.js';
import { argsKey } from '../../src/prep/call-signature.js';

/** Keys that JavaScript treats as array indexes. */
const INDEX_KEY = /^(0|[1-9][0-9]*)$/;
const sortedObject = (entries: [string, unknown][]) => Object.fromEntries([...new Map(entries)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
/** Any UTF-16 code unit: quotes, backslashes, controls, lone surrogates. */
const unit = fc.nat(0xffff).map((code) => String.fromCharCode(code));
const value = fc.oneof(
  fc.string({ unit }),
  fc.string(),
  fc.double(), // NaN, ±Infinity, -0 included
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);

describe('flat arguments take the fast path and give exactly what JSON.stringify writes', () => {
  it('random flat objects with sorted keys (any string, number, boolean, null, undefined)', () => {
    fc.assert(
      // integer-like keys ('0', '17') enumerate before all others whatever the insertion order,
      // so an object with one never enumerates sorted; they have their own test below
      fc.property(fc.array(fc.tuple(fc.string({ unit }).filter((k) => !INDEX_KEY.test(k)), value), { maxLength: 8 }), (entries) => {
        const object = sortedObject(entries);
        expect(flatSortedJson(object)).toBe(JSON.stringify(object));
        expect(canonicalJson(object)).toBe(JSON.stringify(object));
      }),
      { numRuns: 2000 },
    );
  });

  it('long strings, and strings with quotes, backslashes, controls or surrogates, are escaped as JSON.stringify escapes them', () => {
    const text = fc.oneof(fc.string({ unit, minLength: 60, maxLength: 90 }), fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0001', '\ud800', '\udc00', 'a', 'é'), maxLength: 12 }));
    fc.assert(
      fc.property(text, text, (key, item) => {
        const object = { [key]: item };
        fc.pre(!INDEX_KEY.test(key));
        expect(flatSortedJson(object)).toBe(JSON.stringify(object));
      }),
      { numRuns: 1000 },
    );
  });

  it('a key written before is written the same again, first or after another, also past the keys it keeps', () => {
    // the writer keeps the texts of the first 1,024 keys it sees; the ones after are written afresh
    for (let k = 0; k < 1500; k++) {
      const key = `k${k}"\\${'x'.repeat(k % 70)}`;
      const first = { [key]: k, zz: 'b' };
      const after = { a: true, [key]: null };
      for (let twice = 0; twice < 2; twice++) {
        expect(flatSortedJson(first)).toBe(JSON.stringify(first));
        expect(flatSortedJson(after)).toBe(JSON.stringify(after));
      }
    }
  });

  it('integer-like keys go to the general path and are sorted as strings like every other key', () => {
    const object = { '': 0, '10': 'b', '9': 'a', a: true };
    expect(Object.keys(object)).toEqual(['9', '10', '', 'a']); // the engine's order, not sorted
    expect(flatSortedJson(object)).toBeUndefined();
    expect(canonicalJson(object)).toBe('{"":0,"10":"b","9":"a","a":true}');
    expect(canonicalJson({ '0': undefined, '': 0 })).toBe('{"":0}');
  });

  it('random flat objects with keys in any order are written with their keys sorted, as the general path writes them', () => {
    fc.assert(
      // up to 24 keys: the writer's own sort takes up to 16, Array.prototype.sort the rest
      fc.property(fc.array(fc.tuple(fc.string({ unit }).filter((k) => !/^[0-9]/.test(k)), value), { maxLength: 24 }), (entries) => {
        const object = Object.fromEntries(entries);
        const sorted = JSON.stringify(sortedObject(entries.filter(([k]) => Object.hasOwn(object, k)).map(([k]) => [k, object[k]])));
        expect(flatSortedJson(object)).toBe(sorted);
        expect(canonicalJson(object)).toBe(sorted);
        expect(argsKey(object)).toBe(sorted);
      }),
      { numRuns: 2000 },
    );
    expect(flatSortedJson({ path: 'a.txt', content: 'x\n"y"', limit: 3, skip: undefined })).toBe('{"content":"x\\n\\"y\\"","limit":3,"path":"a.txt"}');
  });

  it('anything else goes to the general path: integer-like keys out of order, nesting, bigint, functions', () => {
    expect(flatSortedJson({ b: 1, '7x': 2, a: 3 })).toBeUndefined();
    expect(flatSortedJson({ b: 1, a: { c: 1 } })).toBeUndefined();
    expect(flatSortedJson({ a: { b: 1 } })).toBeUndefined();
    expect(flatSortedJson({ a: 1n })).toBeUndefined();
    expect(flatSortedJson({ toJSON: () => 'x' })).toBeUndefined();
    expect(canonicalJson({ b: 1, a: [2, { d: 1, c: 0 }] })).toBe('{"a":[2,{"c":0,"d":1}],"b":1}');
    expect(argsKey({ b: 1, a: 2 })).toBe(argsKey({ a: 2, b: 1 }));
  });
});
