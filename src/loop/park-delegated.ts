import { Observable } from 'rxjs';
import { texts, type PreparedCall, type SlotResult } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import { emitToolResult } from '../execute/slot-events.js';
import { shownValue } from '../results/shown-value.js';
import type { SlotState, TurnSnapshot } from '../core/turn-snapshot.js';
import type { IterationContext, PrepContext } from '../context/resolved-execution.js';
import { toData } from '../execute/journaled-run.js';
import type { ParkedDelegation } from '../execute/parent-call.js';
import type { RoundResults } from './collect-round.js';
import type { IterationStep } from './iteration-step.js';
import type { Round } from './round.js';
import { sealFor } from './seal-snapshot.js';
import { preparedSlotState } from './slot-state.js';
import { snapshotShape } from './snapshot-schema.js';
import { sumUsage } from './sum-usage.js';
import { toolFingerprint } from './tool-fingerprint.js';
import { batchSnapshot, nextSnapshot } from './turn-snapshot.js';

/**
 * Parks the turn at the calls whose sub-agent parked at an approval (`delegateTool`), once the
 * rest of the batch has run: the done step, reason 'paused', with a snapshot whose batch holds
 * every slot — `done` with its result, `delegated` with the sub-agent's parked snapshot, `ready`
 * for a call that had not started — and `pending`, the sub-agents' requests in slot order. The
 * round is not in history yet; the usage counts the sub-agents' tokens so far. Sealed and checked
 * as `parkStep`'s snapshot is: resuming runs the delegated calls again, each resuming its
 * sub-agent's turn, then the batch goes on as if it had never stopped.
 *
 * ```
 * batch:   (a done, d parked, b not started)
 * result:  (p|)     p: done step, 'paused'; slots done, delegated, ready
 * ```
 * @example
 * ```ts
 * if (run.parked) return of(parkDelegated(it, round, batch, ctx, usage, results, run.parked));
 * ```
 */
export function parkDelegated(
  it: IterationContext,
  round: Round,
  batch: readonly PreparedCall[],
  ctx: PrepContext,
  usage: TurnSnapshot['usage'],
  collected: RoundResults,
  parked: ReadonlyMap<number, ParkedDelegation>,
): IterationStep {
  const results: (SlotResult | undefined)[] = [];
  for (const result of collected.results) results[result.slot] = result;
  const toolSchemas: Record<string, string> = {};
  const slots = batch.map((call, slot): SlotState => {
    const delegated = parked.get(slot);
    const result = results[slot];
    if (result !== undefined && delegated === undefined) return { state: 'done', result: toData(result) };
    if (call.tool && !call.filled) toolSchemas[call.tool.name] = toolFingerprint(call.tool);
    const ready = preparedSlotState(call, slot, ctx);
    if (delegated === undefined || ready.state !== 'ready') return ready;
    return { ...ready, state: 'delegated', child: delegated.snapshot };
  });
  const inFlight = batchSnapshot(it, round, slots, ctx, toolSchemas);
  const total = collected.usage ? sumUsage(usage, collected.usage) : usage;
  const snapshot = sealFor(it, nextSnapshot(it, { usage: total, batch: inFlight }));
  snapshotShape(snapshot); // a turn never parks with a snapshot that cannot resume
  const pending = [...parked.entries()].sort(([a], [b]) => a - b).flatMap(([, p]) => p.pending);
  return { kind: 'done', snapshot, text: '', reason: 'paused', pending };
}

/**
 * Closes each parked call's place (`SlotResult.parked`) `interrupted`: a batch cancelled while a
 * call was parked does not park, it ends as cancelled turns do. Emits the `tool-result` event of
 * each such call (its observers are told, as for any slot), then the round's results.
 *
 * ```
 * collected: (r|)         r: a parked place among the results
 * result:    (er|)        e: its tool-result, 'interrupted'; r: the results, closed
 * ```
 * @example
 * ```ts
 * interruptParked(it, collected).pipe(continueWith((closed: RoundResults) => of(closed.results.length)));
 * ```
 */
export function interruptParked(it: IterationContext, collected: RoundResults): Observable<TurnEvent | RoundResults> {
  return new Observable((subscriber) => {
    const results = collected.results.map((result): SlotResult => {
      if (!result.parked) return result;
      const { parked: _parked, ...rest } = result;
      const closed: SlotResult = { ...rest, content: texts.interrupted, output: texts.interrupted };
      emitToolResult(it, closed, shownValue(closed.args, it.resolved.knobs.maxToolResultChars), subscriber);
      return closed;
    });
    subscriber.next({ ...collected, results });
    subscriber.complete();
  });
}
