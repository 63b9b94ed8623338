import { ConfigurationError } from './errors.js';

/** Loop-detector settings. */
export interface LoopDetectionKnobs {
  readonly enabled: boolean;
  readonly window: number;
  readonly maxRepeats: number;
  readonly ignoreTools: readonly string[];
}

/** Runtime knobs of the loop. Every field has a default (`DEFAULT_KNOBS`). */
export interface Knobs {
  readonly maxToolIterations: number;
  readonly maxIterationBehavior: 'summary' | 'error';
  readonly parallelTools: boolean;
  readonly maxParallelTools: number;
  readonly maxToolResultChars: number;
  readonly strictToolParsing: boolean;
  readonly dedupEnabled: boolean;
  readonly dedupExemptTools: readonly string[];
  readonly loopDetection: LoopDetectionKnobs;
  readonly toolTimeoutMs?: number;
  readonly maxMalformedProtocolRetries: number;
  /** Final answers that do not match the turn's output schema sent back for a correction, before `StructuredOutputError`. */
  readonly maxStructuredOutputRetries: number;
  /** List the turn's receipts at the end of the final answer (when receipts are on). */
  readonly appendReceiptsToAnswer: boolean;
  /** A provider stream that sends no event for this long fails the request (`ProviderError`). */
  readonly providerIdleTimeoutMs: number;
}

export type KnobsInput = Partial<Omit<Knobs, 'loopDetection'>> & { loopDetection?: Partial<LoopDetectionKnobs> };

export const DEFAULT_KNOBS: Knobs = Object.freeze({
  maxToolIterations: 10,
  maxIterationBehavior: 'summary',
  parallelTools: false,
  maxParallelTools: 8,
  maxToolResultChars: 50_000,
  strictToolParsing: false,
  dedupEnabled: true,
  dedupExemptTools: Object.freeze([]) as readonly string[],
  loopDetection: Object.freeze({ enabled: true, window: 20, maxRepeats: 3, ignoreTools: Object.freeze([]) as readonly string[] }),
  toolTimeoutMs: undefined,
  maxMalformedProtocolRetries: 2,
  maxStructuredOutputRetries: 2,
  appendReceiptsToAnswer: false,
  providerIdleTimeoutMs: 120_000,
});

/** Node's timer limit: a longer delay (or `Infinity`) would fire after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

const shown = (value: unknown): string => (typeof value === 'number' ? String(value) : typeof value);

/**
 * A count knob: a whole number (`Infinity` only when `unbounded`); less than `min` falls back to
 * the default; a fraction, NaN or a non-number is a ConfigurationError, never floored.
 */
function count(name: string, value: unknown, fallback: number, min: number, unbounded = false): number {
  if (value === undefined) return fallback;
  if (unbounded && value === Infinity) return value;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new ConfigurationError(`knobs.${name} must be a whole number${unbounded ? ' or Infinity' : ''} (got ${shown(value)}).`);
  }
  return value >= min ? value : fallback;
}

/**
 * A duration knob in whole milliseconds: 0 or negative falls back to the default; past
 * `MAX_TIMER_MS` (`Infinity` included) is no deadline (`undefined`) when `noDeadline`, else a
 * ConfigurationError; a fraction, NaN or a non-number is a ConfigurationError.
 */
export function duration(name: string, value: unknown, fallback: number | undefined, noDeadline: boolean): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || (Number.isFinite(value) && !Number.isInteger(value))) {
    throw new ConfigurationError(`${name} must be whole milliseconds (got ${shown(value)}).`);
  }
  if (value <= 0) return fallback;
  if (value <= MAX_TIMER_MS) return value;
  if (noDeadline) return undefined;
  throw new ConfigurationError(`${name} must be at most ${MAX_TIMER_MS} ms (got ${value}).`);
}

/**
 * Fills defaults and repairs out-of-range values (0 or negative caps and deadlines fall back to
 * their default). A count that is not a whole number, or a duration that is not whole
 * milliseconds, is a ConfigurationError; `Infinity` is no cap (`maxParallelTools`) or no
 * deadline (`toolTimeoutMs`, as is anything past `MAX_TIMER_MS`) and refused elsewhere.
 *
 * @example
 * ```ts
 * resolveKnobs({ parallelTools: true }).maxParallelTools; // 8
 * resolveKnobs({ providerIdleTimeoutMs: 0 }).providerIdleTimeoutMs; // 120000
 * ```
 */
export function resolveKnobs(input: KnobsInput = {}): Knobs {
  const d = DEFAULT_KNOBS;
  // in DEFAULT_KNOBS's order, not spread from it (bench/RESULTS.md, "Choices in src/ made for speed")
  return Object.freeze({
    maxToolIterations: count('maxToolIterations', input.maxToolIterations, d.maxToolIterations, 1),
    maxIterationBehavior: input.maxIterationBehavior ?? d.maxIterationBehavior,
    parallelTools: input.parallelTools ?? d.parallelTools,
    maxParallelTools: count('maxParallelTools', input.maxParallelTools, d.maxParallelTools, 1, true),
    maxToolResultChars: input.maxToolResultChars !== undefined && input.maxToolResultChars >= 0 ? input.maxToolResultChars : d.maxToolResultChars,
    strictToolParsing: input.strictToolParsing ?? d.strictToolParsing,
    dedupEnabled: input.dedupEnabled ?? d.dedupEnabled,
    // the frozen defaults themselves when not given: an agent is often made per turn
    dedupExemptTools: input.dedupExemptTools === undefined ? d.dedupExemptTools : Object.freeze([...input.dedupExemptTools]),
    loopDetection: input.loopDetection === undefined ? d.loopDetection : Object.freeze({ ...d.loopDetection, ...input.loopDetection }),
    toolTimeoutMs: duration('knobs.toolTimeoutMs', input.toolTimeoutMs, undefined, true),
    maxMalformedProtocolRetries: count('maxMalformedProtocolRetries', input.maxMalformedProtocolRetries, d.maxMalformedProtocolRetries, 0),
    maxStructuredOutputRetries: count('maxStructuredOutputRetries', input.maxStructuredOutputRetries, d.maxStructuredOutputRetries, 0),
    appendReceiptsToAnswer: input.appendReceiptsToAnswer ?? d.appendReceiptsToAnswer,
    providerIdleTimeoutMs: duration('knobs.providerIdleTimeoutMs', input.providerIdleTimeoutMs, d.providerIdleTimeoutMs, false) ?? d.providerIdleTimeoutMs,
  });
}
