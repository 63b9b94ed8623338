import type { TokenUsage } from '../core/events.js';

/**
 * Token usage plus more: the same object when `more` is zero (most scripted and cached answers).
 *
 * @example
 * ```ts
 * sumUsage({ inputTokens: 10, outputTokens: 2 }, { inputTokens: 5, outputTokens: 1 }); // { inputTokens: 15, outputTokens: 3 }
 * ```
 */
export function sumUsage(usage: TokenUsage, more: TokenUsage): TokenUsage {
  const { inputTokens, outputTokens } = more;
  if (inputTokens === 0 && outputTokens === 0) return usage;
  return { inputTokens: usage.inputTokens + inputTokens, outputTokens: usage.outputTokens + outputTokens };
}
