import type { PreparedCall } from '../turn/calls.js';
import type { Knobs } from '../turn/knobs.js';

/** The tool that activates deferred tools; a batch containing it never runs in parallel. */
export const TOOL_SEARCH = 'tool_search';

/**
 * Parallel only when: parallel tools are on, the batch has more than one call, more than one is
 * executable, none needed an approval prompt, and none is `tool_search`. Otherwise sequential.
 *
 * @example
 * ```ts
 * dispatchMode(knobs, batch); // 'parallel' | 'sequential'
 * ```
 */
export function dispatchMode(knobs: Knobs, batch: readonly PreparedCall[]): 'parallel' | 'sequential' {
  if (!knobs.parallelTools || batch.length < 2) return 'sequential';
  let executable = 0;
  for (const call of batch) {
    if (call.prompted || call.name === TOOL_SEARCH || call.call.name === TOOL_SEARCH) return 'sequential';
    if (!call.filled && call.tool) executable++;
  }
  return executable > 1 ? 'parallel' : 'sequential';
}
