import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonExtent, MAX_JSON_DEPTH, nestedDeeperThan } from '../../src/provider/text-protocol/json-extent.js';
import { toParsedCall } from '../../src/request/parse-response.js';

const ids = () => 'generated';

describe('nestedDeeperThan tells from a parsed value what jsonExtent tells from its text', () => {
  it('random JSON values (strings with brackets in them included), against every bound up to their depth', () => {
    const value = fc.jsonValue({ maxDepth: 8 }).map((v) => ({ wrapped: [v, '{[', { s: ']}"' }] }));
    fc.assert(
      fc.property(value, (v) => {
        const text = JSON.stringify(v);
        const depth = jsonExtent(text, 0)!.depth;
        for (let max = 0; max <= depth + 1; max++) expect(nestedDeeperThan(JSON.parse(text), max), `${text} over ${max}`).toBe(depth > max);
      }),
      { numRuns: 500 },
    );
  });

  it('stops at the first level past the bound: 200,000 levels deep, no recursion', () => {
    const text = `{"a":${'['.repeat(199_999)}1${']'.repeat(199_999)}}`;
    expect(nestedDeeperThan(JSON.parse(text), MAX_JSON_DEPTH)).toBe(true);
    expect(nestedDeeperThan(JSON.parse(`{"a":${'['.repeat(99)}1${']'.repeat(99)}}`), MAX_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan('text', 0)).toBe(false);
  });

  it("a call's long string argument is accepted, and its deep nesting refused, whatever the string holds", () => {
    const content = `${'{['.repeat(300)} code with brackets ${']}'.repeat(300)}`;
    const long = toParsedCall({ id: 'a', name: 'write', arguments: JSON.stringify({ path: 'a.ts', content }) }, 0, ids);
    expect(long.argsError).toBeUndefined();
    expect(long.args).toEqual({ path: 'a.ts', content });
    const deep = toParsedCall({ id: 'b', name: 'write', arguments: `{"a":${'['.repeat(101)}1${']'.repeat(101)}, "pad": "${'x'.repeat(300)}"}` }, 0, ids);
    expect(deep.argsError).toBe(`the arguments are nested deeper than ${MAX_JSON_DEPTH} levels`);
  });
});
