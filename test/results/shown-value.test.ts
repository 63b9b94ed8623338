import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundValue } from '../../src/results/bound-value.js';
import { scrubValue } from '../../src/results/scrub-value.js';
import { shownValue } from '../../src/results/shown-value.js';

const twoWalks = (value: unknown, maxChars: number) => boundValue(scrubValue(value), maxChars);

/** Short strings and keys, around the lengths where scrubbing and cutting start, secret-shaped ones among them. */
const text = fc.oneof(
  fc.string({ maxLength: 9 }),
  fc.string({ minLength: 8, maxLength: 40 }),
  fc.constantFrom('sk-abcdefgh', 'password', 'pwd', 'token=abcd1234efgh', 'abcdefg', 'abcdefgh', ''),
  // long and innocent, or long with a secret inside
  fc.constantFrom('src/module-7.ts', 'select * from users', 'https://example.com/a?b=c', 'postgres://app:hunter22@db/main', 'Bearer abcdefghijklmnop', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'),
);
const key = fc.oneof(
  fc.string({ maxLength: 9 }),
  fc.constantFrom('password', 'pwd', 'token', 'sk-abcdefghij', 'api_key', 'i', 'path'),
  fc.constantFrom('filename', 'description', 'db_password', 'session_id', 'sk-abcdefghijklmnopqrstuvwx', 'access_key'),
);
const item = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constant({ nested: 'x' }), fc.constant(['a']));

describe('shownValue is boundValue(scrubValue(value)), with one look for the usual arguments', () => {
  it('random flat and near-flat objects, any maxChars (0, tiny, large): the same result as the two walks', () => {
    fc.assert(
      fc.property(fc.dictionary(key, item, { maxKeys: 6 }), fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12 }), fc.constant(50_000)), (object, maxChars) => {
        expect(shownValue(object, maxChars)).toEqual(twoWalks(object, maxChars));
      }),
      { numRuns: 2000 },
    );
  });

  it('comes back as the same object for keys and strings the walks leave as they are, numbers and booleans', () => {
    const args = { i: 0, path: 'a.txt', ok: true, none: null, gone: undefined };
    expect(shownValue(args, 50_000)).toBe(args);
    const long = { filename: 'src/module-7.ts', query: 'select * from users where id = 7', limit: 10 };
    expect(shownValue(long, 50_000)).toBe(long);
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { n: 1 });
    expect(shownValue(bare, 50_000)).toBe(bare);
  });

  it('scrubs what the fast look cannot vouch for: long values, secret keys, token-shaped keys', () => {
    expect(shownValue({ password: 'correct horse' }, 50_000)).toEqual({ password: '[REDACTED]' });
    expect(shownValue({ note: 'token=abcd1234efgh' }, 50_000)).toEqual({ note: 'token=[REDACTED]' });
    expect(shownValue({ 'sk-abcdefghijklmnopqrstuvwx': 1 }, 50_000)).toEqual({ '[REDACTED]': 1 });
  });

  it('cuts what boundValue cuts: strings over maxChars, and many short ones over twice maxChars', () => {
    expect(shownValue({ a: 'abcdef' }, 3)).toEqual(twoWalks({ a: 'abcdef' }, 3));
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`k${k}`, 'abc']));
    const shown = shownValue(many, 10);
    expect(shown).toEqual(twoWalks(many, 10));
    expect(typeof shown).toBe('string');
  });

  it('leaves nested values, arrays, class instances and errors to the two walks', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    for (const value of [{ a: { b: 'sk-abcdefghijklmnopqrstuvwx' } }, ['sk-abcdefghijklmnopqrstuvwx'], new Point(1), new Error('token=abcd1234efgh'), 'password=hunter2hunter2', 7, null]) {
      expect(shownValue(value, 50_000)).toEqual(twoWalks(value, 50_000));
    }
  });
});
