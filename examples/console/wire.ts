import type { ApprovalAnswer, TurnEvent } from '../../src/index.js';

/** An operator's answer to one approval request (`null`, unanswerable, is never an operator's). */
export type OperatorAnswer = Exclude<ApprovalAnswer, null>;

/** Why a request ended without an operator's answer. */
export type UnansweredReason = 'timeout' | 'disconnect' | 'cancelled';

/** What the page is told besides the turn's own events. */
export type ConsoleEvent =
  | { readonly type: 'turn-start'; readonly message: string }
  | { readonly type: 'turn-end'; readonly error?: string }
  | {
      readonly type: 'approval-open';
      readonly requestId: string;
      readonly toolName: string;
      readonly argumentsSummary: string;
      /** Every argument the tool will receive, as `formatFullArgs` lays them out (escaped, whole). */
      readonly arguments: string;
      /** When the request times out, as epoch milliseconds (none for a parked turn's: it waits in the store). */
      readonly deadline?: number;
    }
  | {
      readonly type: 'approval-answered';
      readonly requestId: string;
      readonly answer: 'yes' | 'no' | 'always' | 'replace';
      readonly replaceWith?: string;
      /** The tab that decided (the page's random tab id), so the other tabs can say so; '' when it was not this console. */
      readonly tab: string;
      /** Who decided a parked turn's request (the store's `decidedBy`), on whichever instance. */
      readonly decidedBy?: string;
    }
  | { readonly type: 'approval-unanswered'; readonly requestId: string; readonly reason: UnansweredReason };

/**
 * A turn event as sent to the page: `done` without its history, snapshot and pending requests
 * (those come as `approval-open`), `tool-call` arguments as JSON text.
 */
export type WireEvent =
  | Exclude<TurnEvent, { type: 'done' | 'tool-call' }>
  | (Omit<Extract<TurnEvent, { type: 'done' }>, 'history' | 'snapshot' | 'pending'> & { readonly historyLength: number })
  | (Omit<Extract<TurnEvent, { type: 'tool-call' }>, 'args'> & { readonly args: string })
  | ConsoleEvent;

/** One entry of the session log: replayed in `seq` order to every new connection. */
export interface WireRecord {
  readonly seq: number;
  /** The console turn it belongs to (1-based). */
  readonly turn: number;
  /** The store's id of the turn, for a turn the console follows in a `TurnStore` (decisions name it). */
  readonly turnId?: string;
  readonly event: WireEvent;
}

/**
 * Shapes a turn event for the page: the history of `done` stays on the server, and tool-call
 * arguments travel as JSON text (the loop has already scrubbed them: a card is a rendering surface).
 *
 * @example
 * ```ts
 * toWire({ type: 'tool-call', iteration: 0, slot: 0, id: 'c1', name: 'x', args: { n: 1 } });
 * // → { …, args: '{"n":1}' }
 * ```
 */
export function toWire(event: TurnEvent | ConsoleEvent): WireEvent {
  if (event.type === 'done') {
    // a done event read back from a store has no history (persistTurn keeps it elsewhere)
    const { history, snapshot: _snapshot, pending: _pending, ...rest } = event;
    return { ...rest, historyLength: history?.length ?? 0 };
  }
  if (event.type === 'tool-call') {
    return { ...event, args: JSON.stringify(event.args) ?? 'null' };
  }
  return event;
}
