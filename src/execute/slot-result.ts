import type { PreparedCall, SlotResult } from '../core/calls.js';
import type { SlotOutcome } from '../core/events.js';
import type { SlotResultData } from '../core/turn-snapshot.js';
import { scrubCredentials } from '../results/scrub.js';
import { truncateToolResult } from '../results/truncate.js';
import type { IterationContext } from '../context/resolved-execution.js';

/**
 * Builds a slot result: the model-visible content is truncated (receipt appended for successful
 * executions, over the full output and bound to the turn and the call's id); the event output is
 * scrubbed first, then truncated (so a secret the cut would split is gone whole), without the
 * receipt. `errorType` says why an executed call failed (its thrown error's code or class,
 * `failed` for a reported failure).
 *
 * @example
 * ```ts
 * slotResult(it, prepared, 'executed', true, '42', 3).content; // '42'
 * ```
 */
export function slotResult(
  it: IterationContext,
  call: PreparedCall,
  outcome: SlotOutcome,
  success: boolean,
  text: string,
  durationMs: number,
  data?: unknown,
  errorType?: string,
): SlotResult {
  const { resolved } = it;
  const max = resolved.knobs.maxToolResultChars;
  const bounded = truncateToolResult(text, max);
  let content = bounded;
  let receipt: string | undefined;
  if (outcome === 'executed' && resolved.receipts) {
    const ts = Math.floor(resolved.clock.now() / 1000);
    receipt = resolved.receipts.generate({ turnId: it.turn.turnId, callId: call.id, name: call.name, args: call.args, result: text, ts });
    content = `${bounded}\n\n[receipt: ${receipt}]`;
  }
  return new SlotRecord(call, outcome, success, content, truncateToolResult(scrubCredentials(text), max), durationMs, receipt, data, errorType);
}

/**
 * A slot's result as a journal recorded it (a durable turn resumed after a crash): the same
 * content, output, duration and receipt, nothing made again.
 *
 * @example
 * ```ts
 * const result = recordedSlotResult(call, { slot: 0, id: 'c1', name: 'add', outcome: 'executed', success: true, content: '3', output: '3', durationMs: 4 });
 * ```
 */
export function recordedSlotResult(call: PreparedCall, data: SlotResultData): SlotResult {
  return new SlotRecord(call, data.outcome, data.success, data.content, data.output, data.durationMs, data.receipt, undefined, undefined);
}

/** A class, so every result has the same fields (bench/RESULTS.md, "Choices in src/ made for speed"). */
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
    readonly errorType: string | undefined,
  ) {
    this.slot = call.slot;
    this.id = call.id;
    this.name = call.name;
    this.args = call.args;
    this.argsKey = call.argsKey;
  }
}
