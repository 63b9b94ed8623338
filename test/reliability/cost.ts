import { vi } from 'vitest';
import type { ScanMeter } from '../../src/provider/text-protocol/finder.js';

/**
 * Growth checks that count work instead of timing it, so they give the same answer on every
 * machine and under any load. The same code runs on an input of size n and one of size 16n:
 * linear work grows about 16x (fixed per-call overhead only lowers the ratio), quadratic work
 * 256x. The bound of 64 is 4x above the one and 4x below the other.
 *
 * What counts as work: the characters our scans visit (the `ScanMeter` the parser's finders and
 * bracket matcher add to), the characters handed to `JSON.parse`, and every property read of the
 * value `JSON.parse` returned (a counting proxy around it). Time spent elsewhere is not seen,
 * which is why a change to the decoding code must keep reporting its scans to the meter.
 */
export const GROWTH = 16;
export const LINEAR_BOUND = 64;

/**
 * The work `run` does, counted: what it adds to the meter it is given, plus the characters it
 * hands to `JSON.parse` and the property reads of each value `JSON.parse` returns.
 *
 * @example
 * countWork((meter) => toArguments('{"a":1}', meter)); // 8 + 7 + the reads of { a: 1 }
 */
export function countWork(run: (meter: ScanMeter) => unknown): number {
  const meter: ScanMeter = { steps: 0 };
  const parse = JSON.parse;
  const spy = vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    meter.steps += String(text).length;
    return counted(parse(text, reviver), meter, new WeakMap());
  });
  try {
    run(meter);
  } finally {
    spy.mockRestore();
  }
  return meter.steps;
}

/** `value` behind a proxy that adds one step per property read and per own key listed. */
function counted(value: unknown, meter: ScanMeter, proxies: WeakMap<object, object>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = proxies.get(value);
  if (known !== undefined) return known;
  const proxy = new Proxy(value, {
    get(target, key, receiver) {
      meter.steps++;
      return counted(Reflect.get(target, key, receiver), meter, proxies);
    },
    ownKeys(target) {
      const keys = Reflect.ownKeys(target);
      meter.steps += keys.length;
      return keys;
    },
  });
  proxies.set(value, proxy);
  return proxy;
}

/** How many times more work (by `countWork`) `run(make(base * GROWTH))` does than `run(make(base))`. */
export function countedGrowth(run: (input: string, meter: ScanMeter) => unknown, make: (chars: number) => string, base: number): number {
  const small = make(base);
  const large = make(base * GROWTH);
  return countWork((meter) => run(large, meter)) / Math.max(1, countWork((meter) => run(small, meter)));
}

export const fill = (chars: number, unit: string, prefix = '', suffix = ''): string =>
  prefix + unit.repeat(Math.max(1, Math.ceil((chars - prefix.length - suffix.length) / unit.length))) + suffix;
