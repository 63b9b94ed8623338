import type { ApprovalRequest, ResumeDecision } from '../core/approval-request.js';
import type { NestedEvent } from '../core/events.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import type { ToolContext } from '../core/tool.js';
import type { TurnContext } from '../context/resolved-execution.js';

/**
 * What a tool that runs a sub-agent's turn inside its call (`delegateTool`) gets of that call
 * and of the turn that made it, beside its `ctx`: the turn (its tools, activated set, approval
 * port and scope, which the sub-agent's turn is granted and scoped from), a channel for the
 * sub-agent's events, the turn's cancellation, told before the call is cut, and parking: the
 * call parks with a sub-agent that parked, and runs again, resuming it, when the turn resumes.
 */
export interface ParentCall {
  /** The turn that made the call. */
  readonly turn: TurnContext;
  /** The call's id (the `parentCallId` of the events it nests). */
  readonly callId: string;
  /** The called tool's name, as the turn resolved it. */
  readonly toolName: string;
  /**
   * Shows an event of the sub-agent's turn in the turn's stream, nested under the call (a
   * `delegate` event, its fields scrubbed); ignored once the call ended. A quiet turn
   * (`TurnContext.quiet`) makes only the nested events that carry usage, which `done.usage` counts.
   */
  nest(agent: string, event: NestedEvent): void;
  /**
   * Runs `handler` when the turn is cancelled, before the call is cut: a sub-agent's turn
   * cancelled from it closes its slots while their events can still reach the turn's stream.
   * Returns a function that forgets the handler.
   */
  onCancel(handler: () => void): () => void;
  /**
   * Parks the call with its sub-agent's turn, which parked at an approval: the call answers
   * nothing more (what it emits after is ignored) and the turn parks too, its snapshot holding the
   * sub-agent's. A turn resumed with the decisions runs the call again, with `resumed()` set.
   * False when the turn cannot park here (a loop made by hand): the call must answer instead.
   */
  park(parked: ParkedDelegation): boolean;
  /** When the turn was resumed from a park of this call: the sub-agent's snapshot and the decisions for it. */
  resumed(): ResumedDelegation | undefined;
}

/** A sub-agent's turn parked at an approval: its sealed snapshot and the requests it waits for (scrubbed). */
export interface ParkedDelegation {
  readonly snapshot: TurnSnapshot;
  readonly pending: readonly ApprovalRequest[];
}

/** A parked sub-agent's turn to resume: its snapshot, the decisions for its pending requests, who decided. */
export interface ResumedDelegation {
  readonly snapshot: TurnSnapshot;
  readonly decisions: Readonly<Record<string, ResumeDecision>>;
  readonly decidedBy: string;
}

/** Implemented by the `ctx` the loop gives a running tool. */
export interface HasParentCall {
  parentCall(): ParentCall | undefined;
}

/**
 * The call a tool's `ctx` belongs to, when the loop made the `ctx` (a context made by hand has none).
 *
 * @example
 * ```ts
 * execute: (args, ctx) => parentCallOf(ctx)?.nest('child', event)
 * ```
 */
export function parentCallOf(ctx: ToolContext): ParentCall | undefined {
  const maybe = ctx as Partial<HasParentCall>;
  return typeof maybe.parentCall === 'function' ? maybe.parentCall() : undefined;
}
