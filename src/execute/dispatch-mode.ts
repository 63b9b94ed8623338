import type { PreparedCall } from '../core/calls.js';
import type { Knobs } from '../core/knobs.js';
import { TOOL_SEARCH } from '../core/tool.js';


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
