import type { ObserverEvent, TurnEvent } from '../observe/events.js';
import { scrubCredentials } from '../results/scrub.js';
import type { PreparedCall, SlotResult } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';

/** Opens a slot's card: the `tool-call` event and the observers' `tool-call-start`. */
export function openCard(resolved: ResolvedAgentExecution, turn: TurnState, call: PreparedCall): void {
  turn.emit({ type: 'tool-call', iteration: turn.iteration, slot: call.slot, id: call.id, name: call.name, args: call.args });
  if (resolved.observers.length > 0) {
    notify(resolved, { type: 'tool-call-start', ...correlation(turn, call.name, call.id, call.args) });
  }
}

/** Closes a slot's card: the `tool-result` event and the observers' `tool-call-end`. */
export function closeCard(resolved: ResolvedAgentExecution, turn: TurnState, result: SlotResult): void {
  const event: TurnEvent = {
    type: 'tool-result',
    iteration: turn.iteration,
    slot: result.slot,
    id: result.id,
    name: result.name,
    output: result.output,
    success: result.success,
    outcome: result.outcome,
    durationMs: result.durationMs,
    ...(result.receipt !== undefined ? { receipt: result.receipt } : {}),
  };
  turn.emit(event);
  if (resolved.observers.length > 0) {
    notify(resolved, {
      type: 'tool-call-end',
      ...correlation(turn, result.name, result.id, result.args),
      durationMs: result.durationMs,
      success: result.success,
      outcome: result.outcome,
      result: result.output,
    });
  }
}

function correlation(turn: TurnState, tool: string, toolCallId: string, args: unknown) {
  const { ingress } = turn;
  return {
    tool,
    toolCallId,
    arguments: scrubArguments(args),
    channel: ingress.channel,
    agentAlias: ingress.agentAlias,
    parentAgentAlias: ingress.parentAgentAlias,
    turnId: turn.turnId,
  };
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
