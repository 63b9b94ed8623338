import type { ObservableInput } from 'rxjs';
import type { ApprovalRequest } from './approval-request.js';
import type { SlotResultData, TurnSnapshot } from './turn-snapshot.js';

/**
 * Where a durable turn writes down its progress, so a turn whose process dies can go on
 * elsewhere (`rx-tool-loop/durable` sets one; a plain turn has none). The loop waits for each
 * write: a tool starts only once `started` is recorded, and a result reaches history only once
 * `finished` is. A write that fails (an Observable that errors, a Promise that rejects) fails
 * the turn before anything else runs.
 *
 * - `prepared`: a round is prepared and about to be dispatched; the snapshot's batch holds every
 *   slot as `ready` (to run) or `filled` (decided by preparation).
 * - `started`: slot `slot` is about to run.
 * - `finished`: a slot's result is final.
 * - `decided` (optional): an approval decision was made for `request`, which carries the tool's
 *   real name (the `approval-decision` event carries it scrubbed): the durable store's audit log
 *   and allow-list are written here. The decision event waits for it.
 *
 * Resuming the last snapshot with its slots as recorded (`running` for started, `done` for
 * finished) closes a `running` slot `interrupted` — or runs it again when its tool is
 * `idempotent` — and keeps every `done` result (`agent.resume(snapshot, { decisions: {} })`).
 *
 * @example
 * ```ts
 * const journal: TurnJournal = {
 *   prepared: (snapshot) => store.checkpoint(snapshot),
 *   started: (slot) => store.slot(slot, 'running'),
 *   finished: (result) => store.slot(result.slot, result),
 * };
 * agent.run({ message, journal });
 * ```
 */
export interface TurnJournal {
  prepared(snapshot: TurnSnapshot): ObservableInput<unknown>;
  started(slot: number): ObservableInput<unknown>;
  finished(result: SlotResultData): ObservableInput<unknown>;
  decided?(request: ApprovalRequest, decision: JournalDecision): ObservableInput<unknown>;
}

/** An approval decision as a journal records it. */
export interface JournalDecision {
  readonly decision: 'yes' | 'no' | 'always' | 'replace';
  /** The deciding channel: the front door's name, the resuming caller's, or 'policy'. */
  readonly decidedBy: string;
  readonly byOperator: boolean;
}
