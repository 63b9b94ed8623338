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
  return new SlotRecord(call, outcome, success, content, scrubCredentials(bounded), durationMs, receipt, data);
}

/**
 * A slot result. A class, not an object literal: results live until the batch ends, so V8 would
 * pretenure a literal (see ParsedToolCall in parse-response.ts). One shape for every result.
 */
class SlotRecord implements SlotResult {
  readonly slot: number;
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  readonly argsKey: string | undefined;

  constructor(
    call: PreparedCall,
    readonly outcome: SlotOutcome,
    readonly success: boolean,
    readonly content: string,
    readonly output: string,
    readonly durationMs: number,
    readonly receipt: string | undefined,
    readonly data: unknown,
  ) {
    this.slot = call.slot;
    this.id = call.id;
    this.name = call.name;
    this.args = call.args;
    this.argsKey = call.argsKey;
  }
}
