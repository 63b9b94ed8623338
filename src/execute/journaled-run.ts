import { concat, concatMap, defer, from, ignoreElements, type Observable, of } from 'rxjs';
import type { PreparedCall, SlotResult } from '../core/calls.js';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import type { TurnJournal } from '../core/turn-journal.js';
import type { SlotResultData } from '../core/turn-snapshot.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { executeOne } from './execute-one.js';
import type { BatchRun } from './batch-run.js';

/**
 * `executeOne` for a turn with a journal (a durable turn): an executable call starts once the
 * journal recorded it `started`, and its result goes on once the journal recorded it `finished`.
 * Its events keep their order; a filled slot is not recorded as started.
 *
 * ```
 * started:  --|
 * tool:       ---v|
 * finished:       --|
 * result:   --c------(re|)     c: tool-call, r: slot result, e: tool-result
 * ```
 * @example
 * ```ts
 * const run = it.turn.journal ? (call) => journaledRun(it, call, it.turn.journal) : (call) => executeOne(it, call);
 * ```
 * @param it The iteration the call belongs to.
 * @param call A prepared call.
 * @param journal Where the turn records its progress.
 * @param batch What the batch's calls share (`dispatchBatch` makes one).
 * @return The slot's events and its result, as `executeOne`'s.
 */
export function journaledRun(it: IterationContext, call: PreparedCall, journal: TurnJournal, batch?: BatchRun): Observable<TurnEvent | SlotResult> {
  const run$ = executeOne(it, call, batch).pipe(
    concatMap((value) =>
      // a call parked with its sub-agent has not finished: its slot stays `running` in the journal
      isTurnEvent(value) || value.parked ? of(value) : concat(from(journal.finished(toData(value))).pipe(ignoreElements()), of(value)),
    ),
  );
  if (call.filled || !call.tool) return run$;
  return concat(defer(() => from(journal.started(call.slot))).pipe(ignoreElements()), run$);
}

/** A slot result as the data a snapshot keeps. */
export function toData(result: SlotResult): SlotResultData {
  const { slot, id, name, outcome, success, content, output, durationMs, receipt } = result;
  return { slot, id, name, outcome, success, content, output, durationMs, ...(receipt !== undefined ? { receipt } : {}) };
}

