import type { PreparedCall, SlotResult } from '../core/calls.js';
import { NEVER, type Subscriber } from 'rxjs';
import type { ObserverEvent, TurnEvent, TurnEventOf } from '../core/events.js';
import { scrubCredentials } from '../results/scrub.js';
import { shownValue } from '../results/shown-value.js';
import type { IterationContext } from '../context/resolved-execution.js';

/**
 * Emits a slot's `tool-call` event, with the tool name and the arguments (keys and values)
 * scrubbed and the arguments bounded like results (`maxToolResultChars`: an event is a rendering
 * surface; the call itself keeps them as they are), then tells the observers (`tool-call-start`).
 * Returns the scrubbed arguments, for the slot's `tool-result`. A quiet turn
 * (`TurnContext.quiet`) makes no event, unless it has observers and can be cancelled
 * (`closeUnfinished` reads the event, to announce each slot once and time its interruption);
 * without observers it returns `undefined`.
 *
 * @example
 * ```ts
 * const shown = emitToolCall(it, call, true, subscriber); // right before the tool starts
 * ```
 */
export function emitToolCall(it: IterationContext, call: PreparedCall, executes: boolean, subscriber: Subscriber<TurnEvent>): unknown {
  const { turn } = it;
  const observed = it.resolved.observers.length > 0;
  if (turn.quiet === true && !observed) return undefined;
  const args = shownValue(call.args, it.resolved.knobs.maxToolResultChars);
  const name = scrubCredentials(call.name);
  if (turn.quiet !== true || turn.cancel$ !== NEVER) {
    const event: TurnEventOf<'tool-call'> = { type: 'tool-call', iteration: it.iteration, slot: call.slot, id: call.id, name, args, executes };
    subscriber.next(event);
  }
  if (observed) {
    const { ingress, turnId } = turn;
    // spelled out, not `{ type, ...correlation }` (bench/RESULTS.md, "Choices in src/ made for speed")
    notify(it, {
      type: 'tool-call-start',
      tool: name,
      toolCallId: call.id,
      arguments: args,
      channel: ingress.channel,
      agentAlias: ingress.agentAlias,
      parentAgentAlias: ingress.parentAgentAlias,
      turnId,
    });
  }
  return args;
}

/**
 * Emits a slot's `tool-result` event, then tells the observers (`tool-call-end`). `shownArgs`
 * are the scrubbed arguments `emitToolCall` returned for the slot. A quiet turn
 * (`TurnContext.quiet`) makes the event only when it carries a receipt (`collectRound` collects
 * receipts from the events, in the order the calls completed); it still tells the observers.
 *
 * @example
 * ```ts
 * subscriber.next(result); // the result before its event
 * emitToolResult(it, result, shown, subscriber);
 * ```
 */
export function emitToolResult(it: IterationContext, result: SlotResult, shownArgs: unknown, subscriber: Subscriber<TurnEvent>): void {
  const observed = it.resolved.observers.length > 0;
  const made = it.turn.quiet !== true || result.receipt !== undefined;
  if (!made && !observed) return;
  const name = scrubCredentials(result.name);
  if (made) {
    // same fields in every tool-result event (bench/RESULTS.md, "Choices in src/ made for speed")
    const event: TurnEventOf<'tool-result'> = {
      type: 'tool-result',
      iteration: it.iteration,
      slot: result.slot,
      id: result.id,
      name,
      output: result.output,
      success: result.success,
      outcome: result.outcome,
      durationMs: result.durationMs,
      receipt: result.receipt,
      errorType: result.errorType,
    };
    subscriber.next(event);
  }
  if (observed) {
    const { ingress, turnId } = it.turn;
    notify(it, {
      type: 'tool-call-end',
      tool: name,
      toolCallId: result.id,
      arguments: shownArgs,
      channel: ingress.channel,
      agentAlias: ingress.agentAlias,
      parentAgentAlias: ingress.parentAgentAlias,
      turnId,
      durationMs: result.durationMs,
      success: result.success,
      outcome: result.outcome,
      result: result.output,
    });
  }
}

function notify(it: IterationContext, event: ObserverEvent): void {
  for (const observer of it.resolved.observers) {
    try {
      const returned: unknown = observer(event);
      // only an object or a function can be a thenable: what a sync observer returns costs no promise
      if ((typeof returned === 'object' && returned !== null) || typeof returned === 'function') settled(it, returned, event.type);
    } catch (err) {
      it.resolved.logger.warn({ err, event: event.type }, 'observer threw; ignored');
    }
  }
}

/**
 * Waits for what an async observer returned: a rejection (or a thenable whose `then` throws,
 * read by the Promise machinery, never here) is logged once, scrubbed by the logger, and ignored.
 */
function settled(it: IterationContext, returned: unknown, type: ObserverEvent['type']): void {
  new Promise<unknown>((resolve) => resolve(returned)).then(undefined, (err: unknown) =>
    it.resolved.logger.warn({ err, event: type }, 'observer rejected; ignored'),
  );
}
