import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAgent, createReceiptGenerator } from '../../src/index.js';
import { toParsedCall } from '../../src/operators.js';
import { toArguments } from '../../src/provider/text-protocol/call-shape.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { countedGrowth, fill, GROWTH, LINEAR_BOUND } from './cost.js';
import { expectHealthyTurn, runTurn, slotSummary } from './turn-runner.js';

/**
 * Argument decoding: native calls carry their arguments as raw JSON text (`toParsedCall`), text
 * calls may carry them as a JSON string (`toArguments`). BEHAVIOUR.md: arguments that are not a
 * JSON object become `{}` and the slot fails `invalid-arguments` with the problem in its text;
 * nothing throws, and the work is linear in the input.
 */

const ids = () => 'generated';
const isPlainObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const jsonObject = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 }).map((v) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>);
const rawStrings = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  jsonObject.map((v) => JSON.stringify(v)),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? ''),
  jsonObject.chain((v) => fc.nat().map((cut) => JSON.stringify(v).slice(0, cut % (JSON.stringify(v).length + 1)))),
);

/** The argument-decoding properties, with `scale` multiplying the number of runs (10 in `npm run test:stress`). */
export function describeArgumentProperties(scale: number): void {
  describe('native argument decoding never throws and always yields an object', () => {
    it('any raw text: plain-object args, and a problem exactly when the text is not a JSON object', () => {
      fc.assert(
        fc.property(rawStrings, (raw) => {
          const parsed = toParsedCall({ id: 'c', name: 't', arguments: raw }, 0, ids);
          expect(isPlainObject(parsed.args)).toBe(true);
          expect(parsed.rawArguments).toBe(raw.trim() === '' ? '{}' : raw);
          let isObjectText = raw.trim() === '';
          try {
            isObjectText ||= isPlainObject(JSON.parse(raw));
          } catch {
            // not JSON
          }
          expect(parsed.argsError === undefined).toBe(isObjectText);
        }),
        { numRuns: 400 * scale },
      );
    });

    it('a JSON object round-trips exactly; non-string arguments that are not objects become {}', () => {
      fc.assert(
        fc.property(jsonObject, (value) => {
          expect(toParsedCall({ name: 't', arguments: JSON.stringify(value) }, 3, ids)).toMatchObject({ slot: 3, id: 'generated', args: value });
        }),
        { numRuns: 200 * scale },
      );
      for (const odd of [null, 5, [1], 'x', undefined]) expect(toParsedCall({ name: 't', arguments: odd as never }, 0, ids).args).toEqual({});
    });

    it('text-call arguments given as a string decode only to an object, and never throw', () => {
      fc.assert(
        fc.property(rawStrings, (raw) => {
          const out = toArguments(raw);
          if (out.ok) expect(isPlainObject(out.value)).toBe(true);
          else expect(typeof out.reason).toBe('string');
        }),
        { numRuns: 300 * scale },
      );
    });
  });

  describe('arguments nested deeper than 100 levels are invalid-arguments, not a stack overflow', () => {
    const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;

    it.each([101, 5_000, 200_000])('native arguments %d levels deep: the slot fails invalid-arguments and the turn goes on', async (depth) => {
      const t = fakeTool('t', 'T');
      const model = scriptedModel([
        { toolCalls: [{ id: 'deep', name: 't', arguments: nested(depth) }, { id: 'ok', name: 't', arguments: '{"n":1}' }] },
        { text: 'final' },
      ]);
      // receipts, observers and the loop detector all serialize arguments: the paths that overflowed
      const agent = createAgent({ provider: model, model: 'm', tools: [t], receipts: createReceiptGenerator(), observers: [() => {}] });
      const run = await runTurn(agent);
      expect(run.error).toBeUndefined();
      const [deep, ok] = slotSummary(run.events);
      expect(deep.slice(0, 4)).toEqual([0, 't', 'invalid-arguments', false]);
      expect(deep[4]).toContain('nested deeper than 100 levels');
      expect(ok.slice(0, 4)).toEqual([1, 't', 'executed', true]);
      expect(t.calls.map((c) => c.args)).toEqual([{ n: 1 }]);
      expectHealthyTurn(run, model.requests);
    });

    it('100 levels is still accepted', () => {
      const parsed = toParsedCall({ name: 't', arguments: nested(100) }, 0, ids);
      expect(parsed.argsError).toBeUndefined();
    });
  });

  describe('any raw arguments from the model end in executed or invalid-arguments, and the turn goes on', () => {
    it('a turn per random argument text', async () => {
      await fc.assert(
        fc.asyncProperty(rawStrings, async (raw) => {
          const model = scriptedModel([{ toolCalls: [{ id: 'c', name: 't', arguments: raw }] }, { text: 'final' }]);
          const run = await runTurn(createAgent({ provider: model, model: 'm', tools: [fakeTool('t', 'T')] }));
          expect(run.done?.reason).toBe('final');
          expect(['executed', 'invalid-arguments']).toContain(slotSummary(run.events)[0][2]);
          expectHealthyTurn(run, model.requests);
        }),
        { numRuns: 100 * scale },
      );
    });
  });

  describe('argument decoding does linear work (counted, see cost.ts)', () => {
    const base = 1 << 14;
    const families: [string, (chars: number) => string][] = [
      ['deep nesting', (n) => fill(n, '[', '{"a":')],
      ['a long string of escapes', (n) => `{"a":"${fill(n, '\\"')}"}`],
      ['many keys', (n) => `{${Array.from({ length: Math.ceil(n / 12) }, (_, i) => `"k${i}":${i}`).join(',')}}`],
      ['an unterminated object', (n) => fill(n, '"a":1,', '{')],
      ['garbage', (n) => fill(n, '}{][":,')],
    ];
    it.each(families)('native arguments: %s', (_name, make) => {
      const growth = countedGrowth((raw) => toParsedCall({ name: 't', arguments: raw }, 0, ids), make, base);
      expect(growth).toBeGreaterThanOrEqual(GROWTH / 2); // the count saw the work grow with its input
      expect(growth).toBeLessThan(LINEAR_BOUND);
    });
    it.each(families)('stringified text-call arguments: %s', (_name, make) => {
      const growth = countedGrowth((raw, meter) => toArguments(raw, meter), make, base);
      expect(growth).toBeGreaterThanOrEqual(GROWTH / 2); // the count saw the work grow with its input
      expect(growth).toBeLessThan(LINEAR_BOUND);
    });
  });
}
