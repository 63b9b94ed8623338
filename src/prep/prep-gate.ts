import { from, type ObservableInput } from 'rxjs';
import type { PreparedCall } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import type { PrepContext, PrepGate, PrepStep } from '../context/resolved-execution.js';

/**
 * Makes a preparation step that may wait: `wait` returns what the step emits for a call (an
 * Observable, a promise, …) — its turn events, then the call as it goes on — and the gate
 * returns it as an Observable. `prepareCalls` holds the call (and the calls behind it) until the
 * gate emits a call; the steps after it run on that call.
 *
 * ```
 * call:   a-------          wait: ---(a'|)
 * result: ---a'             the steps after the gate run on a'
 * ```
 * @example
 * ```ts
 * const later = prepGate((call) => timer(10).pipe(map(() => ({ ...call, args: { ...call.args, checked: true } }))));
 * from(calls).pipe(prepareCalls(it, [resolveTool, validateArgs, later]));
 * ```
 * @param wait The step's work for one call.
 * @return The step, for a preparation pipeline.
 */
export function prepGate(wait: (call: PreparedCall, ctx: PrepContext) => ObservableInput<PreparedCall | TurnEvent>): PrepGate {
  return Object.assign((call: PreparedCall, ctx: PrepContext) => from(wait(call, ctx)), { waits: true as const });
}

/**
 * True for a step that may wait (made by `prepGate`).
 *
 * @example
 * ```ts
 * isPrepGate(approvalGate); // true
 * isPrepGate(resolveTool); // false
 * ```
 */
export const isPrepGate = (step: PrepStep): step is PrepGate => (step as Partial<PrepGate>).waits === true;
