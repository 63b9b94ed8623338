import { concat, defer, from, type Observable, of } from 'rxjs';
import { INTERRUPTED, type FilledSlot, type ParsedCall, type PreparedCall } from '../core/calls.js';
import type { Tool } from '../core/tool.js';
import type { TurnEvent } from '../core/events.js';
import type { SlotState } from '../core/turn-snapshot.js';
import { approvalGate, resumeApproval } from '../prep/approval-gate.js';
import { continuePreparation, prepareCalls } from '../prep/prepare-calls.js';
import { continueWith } from '../core/continue-with.js';
import { iterationContext } from '../context/iteration-context.js';
import { createPrepContext, recordArguments } from '../prep/prep-context.js';
import type { PrepContext, TurnContext } from '../context/resolved-execution.js';
import type { CheckedSnapshot } from './check-snapshot.js';
import type { ResumedDelegation } from '../execute/parent-call.js';
import { playRound } from './iterate.js';
import type { IterationStep } from './iteration-step.js';

/**
 * Continues the iteration a turn parked in: the slots prepared before the parked call come back
 * as they were, the parked call is settled with its decision (the decision event, then the rest
 * of its preparation), the calls after it are prepared as usual, and the round plays on exactly
 * as it would have with the answer given at once. A batch parked with sub-agents (`delegated`
 * slots) plays on from its slots as they were: finished ones keep their results, and each
 * delegated call runs again, resuming its sub-agent's turn with the decisions for it.
 *
 * ```
 * snapshot: (batch: a ready, b awaiting, c pending)
 * result:   y-…-(n|)       y: approval-decision for b; then the batch runs; n: the next step
 * ```
 * @example
 * ```ts
 * resumeIteration(turn, checkSnapshot(resolved, stored, decisions, undefined, () => turn.tools), 'console');
 * ```
 */
export function resumeIteration(turn: TurnContext, checked: CheckedSnapshot, decidedBy: string): Observable<TurnEvent | IterationStep> {
  return defer(() => {
    const { snapshot, parked } = checked;
    const batch = snapshot.batch!;
    const { batch: _inFlight, ...rest } = snapshot;
    if (batch.offered) turn.narrowTools(batch.offered); // as its iteration's prepareIteration narrowed them
    const it = iterationContext(turn, rest);
    const ctx = createPrepContext(it);
    for (const signature of batch.promptedInBatch) ctx.promptedInBatch.add(signature);
    const round = { text: batch.text, fromText: batch.fromText, calls: batch.calls, ...(batch.reasoning ? { reasoning: batch.reasoning } : {}) };
    if (!parked) {
      // recovered after a crash: every slot was prepared; started ones close interrupted (or run
      // again); or parked with sub-agents: their calls run again, each resuming its sub-agent's turn
      const slots = batch.slots.map((state, at) => restore(state, at, checked, ctx));
      return playRound(it, round, from(slots), ctx, snapshot.usage, resumedDelegations(checked, decidedBy));
    }
    const { slot, request, answer } = parked;
    const before = batch.slots.slice(0, slot).map((state, at) => restore(state, at, checked, ctx));
    const waiting = restore(batch.slots[slot], slot, checked, ctx);
    const steps = it.resolved.prepSteps;
    const afterGate = steps.indexOf(approvalGate) + 1;
    const prepared$ = concat(
      from(before),
      resumeApproval(waiting, request, { value: answer, decidedBy }, ctx).pipe(
        continueWith((decided: PreparedCall) => (decided.paused ? of(decided) : continuePreparation(decided, afterGate, steps, ctx))),
      ),
      from(batch.calls.slice(slot + 1)).pipe(prepareCalls(it, steps, ctx)),
    );
    return playRound(it, round, prepared$, ctx, snapshot.usage);
  });
}

/** Each parked sub-agent's turn to resume, by slot, with the decisions for it and who decided. */
function resumedDelegations(checked: CheckedSnapshot, decidedBy: string): ReadonlyMap<number, ResumedDelegation> | undefined {
  if (!checked.delegated) return undefined;
  return new Map([...checked.delegated].map(([slot, { snapshot, decisions }]) => [slot, { snapshot, decisions, decidedBy }]));
}

/** A slot of the parked batch as the prepared call it was, its part of the batch's preparation state restored. */
function restore(state: SlotState, slot: number, checked: CheckedSnapshot, ctx: PrepContext): PreparedCall {
  const call = checked.snapshot.batch!.calls[slot];
  switch (state.state) {
    case 'filled':
      return restored(call, state.name, state.args, undefined, { outcome: state.outcome, output: state.output, success: state.success }, undefined, undefined);
    case 'done': {
      const { outcome, content, success } = state.result;
      return restored(call, state.result.name, call.args, undefined, { outcome, output: content, success, recorded: state.result }, undefined, undefined);
    }
    case 'running':
      // started before a crash: at most once, unless the tool says it is safe to run again
      if (ctx.turn.tools.get(state.name)?.idempotent !== true) return restored(call, state.name, state.args, undefined, INTERRUPTED, undefined, undefined);
      return restore({ ...state, state: 'ready', approved: state.approved ?? false, prompted: state.prompted ?? false }, slot, checked, ctx);
    case 'delegated':
    case 'ready': {
      const tool = ctx.turn.tools.get(state.name);
      if (state.approved) ctx.approved.add(slot);
      if (state.argsKey !== undefined && tool) recordArguments(ctx, tool.name, state.argsKey);
      return restored(call, state.name, state.args, tool, undefined, state.prompted, state.argsKey);
    }
    case 'awaiting-approval':
      if (state.signature !== undefined) ctx.promptSignatureBySlot.set(slot, state.signature);
      return restored(call, state.name, state.args, ctx.turn.tools.get(state.name), undefined, true, undefined);
    default:
      throw new Error(`slot ${slot} cannot be restored from state '${state.state}'`);
  }
}

/**
 * A restored call: every field spelled out, not spread, the same fields for every slot state
 * (bench/RESULTS.md, "Choices in src/ made for speed").
 */
function restored(
  call: ParsedCall,
  name: string,
  args: Record<string, unknown>,
  tool: Tool | undefined,
  filled: FilledSlot | undefined,
  prompted: boolean | undefined,
  argsKey: string | undefined,
): PreparedCall {
  return { call, slot: call.slot, id: call.id, name, args, tool, filled, prompted, argsKey };
}
