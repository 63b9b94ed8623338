import { describe, expect, it } from 'vitest';
import { ConfigurationError, DEFAULT_KNOBS, resolveKnobs } from '../../src/index.js';

describe('resolveKnobs', () => {
  it('gives the defaults, with their keys in the same order, frozen', () => {
    const knobs = resolveKnobs();
    expect(knobs).toEqual(DEFAULT_KNOBS);
    expect(Object.keys(knobs)).toEqual(Object.keys(DEFAULT_KNOBS));
    expect(Object.isFrozen(knobs)).toBe(true);
    // the frozen defaults themselves, not copies
    expect(knobs.dedupExemptTools).toBe(DEFAULT_KNOBS.dedupExemptTools);
    expect(knobs.loopDetection).toBe(DEFAULT_KNOBS.loopDetection);
  });

  it('takes every knob given, and keeps the same key order', () => {
    const input = {
      maxToolIterations: 4,
      maxIterationBehavior: 'error' as const,
      parallelTools: true,
      maxParallelTools: 2,
      maxToolResultChars: 0,
      strictToolParsing: true,
      dedupEnabled: false,
      dedupExemptTools: ['a'],
      loopDetection: { maxRepeats: 5 },
      toolTimeoutMs: 900,
      maxMalformedProtocolRetries: 0,
      maxStructuredOutputRetries: 0,
      appendReceiptsToAnswer: true,
      providerIdleTimeoutMs: 1000,
    };
    const knobs = resolveKnobs(input);
    expect(knobs).toEqual({ ...input, loopDetection: { ...DEFAULT_KNOBS.loopDetection, maxRepeats: 5 } });
    expect(Object.keys(knobs)).toEqual(Object.keys(DEFAULT_KNOBS));
    expect(Object.isFrozen(knobs.dedupExemptTools) && Object.isFrozen(knobs.loopDetection)).toBe(true);
    expect(knobs.dedupExemptTools).not.toBe(input.dedupExemptTools);
  });

  it('repairs out-of-range values, and a knob given as undefined is its default', () => {
    const knobs = resolveKnobs({ maxToolIterations: 0, maxParallelTools: -1, maxToolResultChars: -5, providerIdleTimeoutMs: 0, toolTimeoutMs: 0, maxMalformedProtocolRetries: -1, maxStructuredOutputRetries: -1 });
    expect(knobs).toEqual(DEFAULT_KNOBS);
    const unset = resolveKnobs({ parallelTools: undefined, dedupEnabled: undefined, maxIterationBehavior: undefined, strictToolParsing: undefined, appendReceiptsToAnswer: undefined });
    expect(unset).toEqual(DEFAULT_KNOBS);
  });

  it.each([
    ['maxParallelTools', 0.5], ['maxParallelTools', 2.7], ['maxParallelTools', Number.NaN], ['maxParallelTools', '4'],
    ['maxToolIterations', 0.5], ['maxToolIterations', Infinity], ['maxMalformedProtocolRetries', 0.5],
    ['maxStructuredOutputRetries', 1.5], ['maxStructuredOutputRetries', Number.NaN], ['maxStructuredOutputRetries', '2'], ['maxStructuredOutputRetries', Infinity],
    ['toolTimeoutMs', 0.5], ['toolTimeoutMs', Number.NaN], ['providerIdleTimeoutMs', Number.NaN],
    ['providerIdleTimeoutMs', 2 ** 31], ['providerIdleTimeoutMs', Infinity],
  ] as const)('a count that is not a whole number, or a duration that is not whole ms in the timer range, is a ConfigurationError: %s %s', (knob, value) => {
    expect(() => resolveKnobs({ [knob]: value } as never)).toThrow(ConfigurationError);
  });

  it('Infinity is no cap for maxParallelTools, and no deadline (as is 2^31 ms or more) for toolTimeoutMs', () => {
    expect(resolveKnobs({ maxParallelTools: Infinity }).maxParallelTools).toBe(Infinity);
    expect(resolveKnobs({ toolTimeoutMs: Infinity }).toolTimeoutMs).toBeUndefined();
    expect(resolveKnobs({ toolTimeoutMs: 2 ** 31 }).toolTimeoutMs).toBeUndefined();
    expect(resolveKnobs({ toolTimeoutMs: 2 ** 31 - 1 }).toolTimeoutMs).toBe(2 ** 31 - 1);
  });

  it('leaves out keys that are not knobs', () => {
    const knobs = resolveKnobs({ parallelTools: true, typo: 1 } as never);
    expect(Object.keys(knobs)).toEqual(Object.keys(DEFAULT_KNOBS));
  });
});
