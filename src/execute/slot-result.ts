import type { SlotOutcome } from '../observe/events.js';
import { scrubCredentials } from '../results/scrub.js';
import { truncateToolResult } from '../results/truncate.js';
import type { PreparedCall, SlotResult } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';

/**
 * Builds a slot result: the model-visible content is truncated (receipt appended for successful
 * executions); the event output is the truncated text, scrubbed, without the receipt.
 *
 * @example
 * ```ts
 * slotResult(resolved, prepared, 'executed', true, '42', 3, turn).content; // '42'
 * ```
 */
export function slotResult(
  resolved: ResolvedAgentExecution,
  call: PreparedCall,
  outcome: SlotOutcome,
  success: boolean,
  text: string,
  durationMs: number,
  turn?: TurnState,
  data?: unknown,
): SlotResult {
  const bounded = truncateToolResult(text, resolved.knobs.maxToolResultChars);
  let content = bounded;
  let receipt: string | undefined;
  if (outcome === 'executed' && resolved.receipts && turn) {
    receipt = resolved.receipts.generate(call.name, call.args, text, Math.floor(resolved.clock.now() / 1000));
    content = `${bounded}\n\n[receipt: ${receipt}]`;
    turn.receipts.push(receipt);
  }
  const result: { -readonly [K in keyof SlotResult]: SlotResult[K] } = {
    slot: call.slot,
    id: call.id,
    name: call.name,
    args: call.args,
    outcome,
    success,
    content,
    output: scrubCredentials(bounded),
    durationMs,
    argsKey: call.argsKey,
  };
  // Only when present, as before (no `receipt: undefined` keys on the result).
  if (receipt !== undefined) result.receipt = receipt;
  if (data !== undefined) result.data = data;
  return result;
}
