import type { ObserverEvent, TurnEvent } from '../observe/events.js';
import { scrubCredentials } from '../results/scrub.js';
import type { PreparedCall, SlotResult } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';

/**
 * Opens a slot's card: the `tool-call` event and the observers' `tool-call-start`. Returns the
 * arguments as observers saw them (scrubbed), so `closeCard` can reuse them.
 */
export function openCard(resolved: ResolvedAgentExecution, turn: TurnState, call: PreparedCall): unknown {
  turn.emit({ type: 'tool-call', iteration: turn.iteration, slot: call.slot, id: call.id, name: call.name, args: call.args });
  if (resolved.observers.length === 0) return NOT_SCRUBBED;
  const shown = scrubArguments(call.args);
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

/** `openCard`'s answer when no observer needed the arguments. */
export const NOT_SCRUBBED: unique symbol = Symbol('not scrubbed');

/**
 * Closes a slot's card: the `tool-result` event and the observers' `tool-call-end`. `shown` is
 * what `openCard` returned for the slot, when it was opened by the same caller.
 */
export function closeCard(resolved: ResolvedAgentExecution, turn: TurnState, result: SlotResult, shown: unknown = NOT_SCRUBBED): void {
  turn.emit(
    result.receipt !== undefined
      ? {
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
        }
      : {
          type: 'tool-result',
          iteration: turn.iteration,
          slot: result.slot,
          id: result.id,
          name: result.name,
          output: result.output,
          success: result.success,
          outcome: result.outcome,
          durationMs: result.durationMs,
        },
  );
  if (resolved.observers.length === 0) return;
  const { ingress } = turn;
  notify(resolved, {
    type: 'tool-call-end',
    tool: result.name,
    toolCallId: result.id,
    arguments: shown === NOT_SCRUBBED ? scrubArguments(result.args) : shown,
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

/** Arguments as rendered for observers: scrubbed JSON round-trip only when something was redacted. */
function scrubArguments(args: unknown): unknown {
  let json: string;
  try {
    json = JSON.stringify(args) ?? '';
  } catch {
    return '[unserializable arguments]';
  }
  const scrubbed = scrubCredentials(json);
  if (scrubbed === json) return args;
  try {
    return JSON.parse(scrubbed);
  } catch {
    return scrubbed;
  }
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
