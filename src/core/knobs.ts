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
  appendReceiptsToAnswer: false,
  providerIdleTimeoutMs: 120_000,
});

const positive = (value: number | undefined, fallback: number): number =>
  value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;

/**
 * Fills defaults and repairs out-of-range values (0 or negative caps and deadlines fall back to
 * their default).
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
    maxToolIterations: positive(input.maxToolIterations, d.maxToolIterations),
    maxIterationBehavior: input.maxIterationBehavior ?? d.maxIterationBehavior,
    parallelTools: input.parallelTools ?? d.parallelTools,
    maxParallelTools: positive(input.maxParallelTools, d.maxParallelTools),
    maxToolResultChars: input.maxToolResultChars !== undefined && input.maxToolResultChars >= 0 ? input.maxToolResultChars : d.maxToolResultChars,
    strictToolParsing: input.strictToolParsing ?? d.strictToolParsing,
    dedupEnabled: input.dedupEnabled ?? d.dedupEnabled,
    // the frozen defaults themselves when not given: an agent is often made per turn
    dedupExemptTools: input.dedupExemptTools === undefined ? d.dedupExemptTools : Object.freeze([...input.dedupExemptTools]),
    loopDetection: input.loopDetection === undefined ? d.loopDetection : Object.freeze({ ...d.loopDetection, ...input.loopDetection }),
    toolTimeoutMs: input.toolTimeoutMs !== undefined && input.toolTimeoutMs > 0 ? input.toolTimeoutMs : undefined,
    maxMalformedProtocolRetries:
      input.maxMalformedProtocolRetries !== undefined && input.maxMalformedProtocolRetries >= 0
        ? input.maxMalformedProtocolRetries
        : d.maxMalformedProtocolRetries,
    appendReceiptsToAnswer: input.appendReceiptsToAnswer ?? d.appendReceiptsToAnswer,
    providerIdleTimeoutMs: positive(input.providerIdleTimeoutMs, d.providerIdleTimeoutMs),
  });
}
