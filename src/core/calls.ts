import type { ApprovalRequest } from './approval-request.js';
import type { SlotOutcome, SlotResultData } from './outcome.js';
import { TOOL_SEARCH, type Tool } from './tool.js';

/** A tool call as parsed from a provider response, with its slot in the batch. */
export interface ParsedCall {
  readonly slot: number;
  /** The provider's id, or a generated one; both events of the slot carry it. */
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** The arguments as the model wrote them (history echoes them back). */
  readonly rawArguments: string;
  /** Why the raw arguments could not be decoded, when they could not. */
  readonly argsError?: string;
}

/** A slot decided without executing: its outcome and model-visible text. */
export interface FilledSlot {
  readonly outcome: SlotOutcome;
  readonly output: string;
  readonly success: boolean;
  /** The slot's result as a journal recorded it before a crash: it is kept as it was, not made again. */
  readonly recorded?: SlotResultData;
}

/** A call after preparation: either executable (`tool` set, no `filled`) or `filled`. */
export interface PreparedCall {
  readonly call: ParsedCall;
  readonly slot: number;
  readonly id: string;
  /** Name and args after hooks, defaults and markers. */
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly tool?: Tool;
  readonly filled?: FilledSlot;
  /** An approval prompt was needed for this call (forces a sequential batch). */
  readonly prompted?: boolean;
  /** The approval front door parked the turn at this call (`pauseForApproval`): the request waiting. */
  readonly paused?: ApprovalRequest;
  /**
   * `args` as key-sorted JSON, set by the dedup guard (the last step) on the one call per tool
   * and key it lets through in a batch; the loop detector relies on both. A step that changes
   * `args` after the dedup guard must drop it.
   */
  readonly argsKey?: string;
}

/** How a slot ended, with both the model-visible content and the rendered event output. */
export interface SlotResult {
  readonly slot: number;
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  readonly outcome: SlotOutcome;
  readonly success: boolean;
  /** Model-visible text (truncated, receipt appended), never scrubbed. */
  readonly content: string;
  /** Rendered text for events: truncated and scrubbed, without the receipt. */
  readonly output: string;
  readonly durationMs: number;
  /** The call's `argsKey`, when preparation computed it. */
  readonly argsKey?: string;
  readonly receipt?: string;
  readonly data?: unknown;
  /** Why an executed call failed (the `tool-result` event's `errorType`). */
  readonly errorType?: string;
  /**
   * The call's sub-agent parked its turn at an approval (`delegateTool`): the slot has no result
   * yet and no `tool-result` event; the batch parks with it (its snapshot holds the slot `delegated`).
   */
  readonly parked?: true;
}

/** The model-visible texts of slots that end without (or before) a result of their own. */
export const texts = {
  noOutput: '(no output)',
  interrupted: '[interrupted before this tool produced a result]',
  unknown: (name: string) => `Unknown tool: ${name}`,
  /** A listed deferred tool that is not active yet: says how to activate it. */
  notActivated: (name: string) =>
    `Unknown tool: ${name}. It is a deferred tool that is not active yet: call ${TOOL_SEARCH} with query ` +
    `"select:${name}" to activate it, then call it from your next step on.`,
  excluded: (name: string) => `Tool not available in this turn: ${name}`,
  failed: (message: string) => `Error: ${message}`,
  thrown: (name: string, message: string) => `Error executing ${name}: ${message}`,
  invalidArguments: (name: string, message: string) =>
    `Error: invalid arguments for ${name}: ${message}\nFix the arguments to match the tool's parameter schema and call it again.`,
} as const;

/** How a slot that never ran is closed when the turn is cancelled. */
export const INTERRUPTED: FilledSlot = Object.freeze({ outcome: 'interrupted', output: texts.interrupted, success: false });
