import type { ObserverEvent, TurnEvent } from '../observe/events.js';
import { scrubValue } from '../results/scrub-value.js';
import type { PreparedCall, SlotResult } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';

/**
 * Opens a slot's card: the `tool-call` event and the observers' `tool-call-start`, both with the
 * arguments scrubbed (a card is a rendering surface; the call itself keeps them as they are).
 * Returns the scrubbed arguments, so `closeCard` can reuse them (`NOT_SCRUBBED` when there is
 * neither event nor observer).
 */
export function openCard(resolved: ResolvedAgentExecution, turn: TurnState, call: PreparedCall): unknown {
  const observed = resolved.observers.length > 0;
  if (!turn.callEvents && !observed) return NOT_SCRUBBED; // nobody sees this card
  const shown = scrubValue(call.args);
  if (turn.callEvents) {
    turn.emit({ type: 'tool-call', iteration: turn.iteration, slot: call.slot, id: call.id, name: call.name, args: shown });
  }
  if (!observed) return shown;
  const { ingress } = turn;
  notify(resolved, {
    type: 'tool-call-start',
    tool: call.name,
    toolCallId: call.id,
    arguments: shown,
    channel: ingress.channel,
    agentAlias: ingress.agentAlias,
    parentAgentAlias: ingress.parentAgentAlias,
    turnId: turn.turnId,
  });
  return shown;
}

/** What `closeCard` gets for a card it did not open itself: it scrubs the arguments then. */
export const NOT_SCRUBBED: unique symbol = Symbol('not scrubbed');

/**
 * Closes a slot's card: the `tool-result` event and the observers' `tool-call-end`. `shown` is
 * what `openCard` returned for the slot, when it was opened by the same caller.
 */
export function closeCard(resolved: ResolvedAgentExecution, turn: TurnState, result: SlotResult, shown: unknown = NOT_SCRUBBED): void {
  // One shape for every tool-result event (receipt undefined when there is none): one hidden class.
  if (turn.callEvents) {
    turn.emit({
      type: 'tool-result',
      iteration: turn.iteration,
      slot: result.slot,
      id: result.id,
      name: result.name,
      output: result.output,
      success: result.success,
      outcome: result.outcome,
      durationMs: result.durationMs,
      receipt: result.receipt,
    });
  }
  if (resolved.observers.length === 0) return;
  const { ingress } = turn;
  notify(resolved, {
    type: 'tool-call-end',
    tool: result.name,
    toolCallId: result.id,
    arguments: shown === NOT_SCRUBBED ? scrubValue(result.args) : shown,
    channel: ingress.channel,
    agentAlias: ingress.agentAlias,
    parentAgentAlias: ingress.parentAgentAlias,
    turnId: turn.turnId,
    durationMs: result.durationMs,
    success: result.success,
    outcome: result.outcome,
    result: result.output,
  });
}


function notify(resolved: ResolvedAgentExecution, event: ObserverEvent): void {
  for (const observer of resolved.observers) {
    try {
      observer(event);
    } catch (err) {
      resolved.logger.warn({ err, event: event.type }, 'observer threw; ignored');
    }
  }
}
