import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTextToolCalls } from '../../src/index.js';
import type { ScanMeter } from '../../src/provider/text-protocol/finder.js';
import { scanTextToolCalls } from '../../src/provider/text-protocol/parse-text-tool-calls.js';
import { countedGrowth, fill, GROWTH, LINEAR_BOUND } from './cost.js';
import { damaged, KNOWN, responseArb, soup } from './parser-arbitraries.js';

const known = [...KNOWN];

/** Every call the parser returns names a known tool and carries plain-object arguments. */
function expectWellFormed(text: string): void {
  const { calls, malformed } = scanTextToolCalls(text, known);
  expect(typeof malformed).toBe('boolean');
  for (const call of calls) {
    expect(known).toContain(call.name);
    expect(call.arguments !== null && typeof call.arguments === 'object' && !Array.isArray(call.arguments)).toBe(true);
  }
}

const steps = (text: string): number => {
  const meter: ScanMeter = { steps: 0 };
  scanTextToolCalls(text, known, meter);
  return meter.steps;
};

/** Families of inputs (up to 1 MB) built to trip backtracking or rescanning, as [name, unit, prefix, suffix]. */
export const ADVERSARIAL: readonly [string, string, string?, string?][] = [
  ['opening tags', '<tool_call>'],
  ['opening tags with a brace', '<tool_call>{'],
  ['unclosed nested calls', '{"name":"alpha","arguments":', '<tool_call>'],
  ['an unclosed string', 'x', '<tool_call>{"name":"'],
  ['escaped quotes in a string', '\\"', '<tool_call>{"name":"'],
  ['backslashes', '\\', '<tool_call>{"a":"'],
  ['bare <invoke', '<invoke '],
  ['<invoke without its closing >', '<invoke name="alpha" '],
  ['unclosed invokes', '<invoke name="alpha"><parameter name="k">'],
  ['parameters that never close', '<parameter name="k">1', '<invoke name="alpha">'],
  ['closed parameters in one invoke', '<parameter name="k">1</parameter>', '<invoke name="alpha">', '</invoke>'],
  ['<function= tags', '<function=beta>'],
  ['deep bracket nesting', '[', '<tool_call>'],
  ['alternating brackets', '[{', '<tool_call>'],
  ['<think> openings', '<think>'],
  ['</think> closings', '</think>'],
  ['<think prefixes without >', '<think'],
  ['fences', '```tool_call\n'],
  ['fences with a brace', '```tool_call\n{'],
  ['closing-tag prefixes', '</tool', '<tool_call>{'],
  ['example phrases before calls', 'for example <tool_call>{"name":"alpha"}</tool_call>'],
  ['valid calls', '<tool_call>{"name":"alpha"}</tool_call>'],
  ['"<"', '<'],
  ['backticks', '`'],
  ['a whole-response JSON list', '{"name":"alpha","arguments":{}},', '[', ']'],
  ['lone surrogates', '\uD800<'],
];

/**
 * The text-protocol parser's properties, with `scale` multiplying the number of runs (1 in
 * `npm test`, 10 in `npm run test:stress`).
 */
export function describeParserProperties(scale: number): void {
  const runs = (n: number) => ({ numRuns: n * scale });

  describe('the text-protocol parser never throws and only returns known calls with object arguments', () => {
    it('on arbitrary UTF-16 (lone surrogates included)', () => {
      fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), expectWellFormed), runs(300));
    });
    it('on arbitrary graphemes', () => {
      fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), expectWellFormed), runs(200));
    });
    it('on protocol fragments stitched at random', () => {
      fc.assert(fc.property(soup, expectWellFormed), runs(500));
    });
    it('on valid responses damaged by a cut, an insertion, a deletion or a duplication', () => {
      fc.assert(fc.property(damaged, expectWellFormed), runs(400));
    });
    it('on input that is not a string', () => {
      for (const value of [undefined, null, 42, {}, [], Symbol('s')]) expect(parseTextToolCalls(value as unknown as string, known)).toEqual([]);
    });
  });

  describe('real calls embedded in noise and decoys are found exactly: same calls, same order, same arguments', () => {
    it('every format; unknown names, <think> blocks and examples are skipped', () => {
      fc.assert(
        fc.property(responseArb, ({ text, calls }) => {
          expect(parseTextToolCalls(text, known)).toEqual(calls);
        }),
        runs(400),
      );
    });
  });

  describe('the parser does linear work', () => {
    it('counted: 16x the input costs at most 64x the steps, for any repeated fragment', () => {
      fc.assert(
        fc.property(soup.filter((unit) => unit.length > 0), (unit) => {
          const small = fill(4096, unit);
          const large = fill(4096 * GROWTH, unit);
          expect(steps(large) / Math.max(1, steps(small))).toBeLessThan(LINEAR_BOUND);
        }),
        runs(25),
      );
    });

    const base = scale > 1 ? 1 << 16 : 1 << 14;
    const kb = (chars: number) => `${chars >> 10} KB`;
    it.each(ADVERSARIAL)(`counted (see cost.ts): ${kb(base * GROWTH)} of %s costs under 64x the work of ${kb(base)}`, (_name, unit, prefix, suffix) => {
      expect(fill(base * GROWTH, unit, prefix, suffix).length).toBeLessThanOrEqual((1 << 20) + 64);
      const growth = countedGrowth((text, meter) => scanTextToolCalls(text, known, meter), (chars) => fill(chars, unit, prefix, suffix), base);
      expect(growth).toBeGreaterThanOrEqual(GROWTH / 2); // the count saw the scan grow with its input
      expect(growth).toBeLessThan(LINEAR_BOUND);
    });
  });
}
