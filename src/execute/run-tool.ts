import { catchError, defer, first, isObservable, mergeMap, Observable, type ObservableInput, of, type Subscriber, takeLast, tap, throwError, timeout } from 'rxjs';
import { texts, type PreparedCall, type SlotResult } from '../core/calls.js';
import { ToolTimeoutError } from '../core/errors.js';
import { MAX_TIMER_MS } from '../core/knobs.js';
import type { SlotOutcome, TurnEvent } from '../core/events.js';
import type { ToolResult } from '../core/tool.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { runAfterToolCallHooks } from './after-tool-call-hooks.js';
import { errorMessage, errorTypeOf, normalizeResult } from './normalize-result.js';
import { emitToolResult } from './slot-events.js';
import { slotResult } from './slot-result.js';
import { SlotContext } from './slot-context.js';
import type { BatchRun } from './batch-run.js';

/**
 * Runs an executable call's tool and ends its slot: the tool's answer — a value, a promise, or
 * the first value of an Observable (`first`; completing without one answers nothing) — is
 * normalized (`normalizeResult`), and what it throws or rejects with fails the call; under the
 * tool's deadline (`timeout({ first })`, `timeoutMs` or `knobs.toolTimeoutMs`) the tool is torn
 * down and fails with a `ToolTimeoutError`. Then the slot result, its `tool-result` event and
 * the `afterToolCall` hooks. Unsubscribing before the answer (cancellation) and the deadline
 * close the slot's signal (`SlotContext`), however late the tool reads it. A tool that runs a
 * sub-agent's turn nests its events into the slot's stream (`parentCallOf(ctx)`), and is told of the
 * turn's cancellation through `batch` before the slot is cut; one that parks with its sub-agent
 * (`ParentCall.park`) ends with a result marked `parked` and no `tool-result` event.
 *
 * ```
 * tool:    ---v|
 * result:  ---(re|)     r: slot result, e: tool-result
 * tool:    ---------    (deadline 5)
 * result:  -----(re|)   r: failed, ToolTimeoutError; the signal aborts
 * ```
 * @example
 * ```ts
 * new Observable((slot) => runTool(it, call, shownArgs, slot, batch).subscribe(slot)); // as the slot starts
 * ```
 * @param it The iteration the call belongs to.
 * @param call A prepared call with a tool.
 * @param shownArgs The scrubbed arguments its `tool-call` event showed.
 * @param slot The slot's subscriber: a sub-agent's events nest into it until the slot ends.
 * @param batch What the batch's calls share (`dispatchBatch` makes one).
 * @return The slot result, then its events. Call it as the slot starts (it makes the tool's
 * context and reads the clock): `executeOne` calls it from its subscription.
 */
export function runTool(
  it: IterationContext,
  call: PreparedCall,
  shownArgs: unknown,
  slot: Subscriber<TurnEvent | SlotResult>,
  batch?: BatchRun,
): Observable<TurnEvent | SlotResult> {
  const tool = call.tool!;
  const ctx = new SlotContext(it, call, slot, batch);
  const started = timed(it) ? it.resolved.clock.now() : 0;
  const { runTool: runner } = it.resolved;
  const answer$ = defer(() => answerOf(runner ? runner(call, () => tool.execute(call.args, ctx)) : tool.execute(call.args, ctx)));
  const timeoutMs = tool.timeoutMs ?? it.resolved.knobs.toolTimeoutMs;
  const expire = (): Observable<never> => {
    const err = new ToolTimeoutError(tool.name, timeoutMs!);
    ctx.close(err);
    return throwError(() => err);
  };
  const bounded$ = timeoutMs !== undefined && timeoutMs <= MAX_TIMER_MS ? answer$.pipe(timeout({ first: timeoutMs, with: expire })) : answer$;
  return bounded$.pipe(
    // torn down before the answer (cancellation): the tool's signal aborts, its late answer is ignored
    tap({ unsubscribe: () => ctx.close() }),
    // the answer goes on once the tool's side completed: a consumer that leaves from the slot's
    // events does not abort the signal of a tool that already answered
    takeLast(1),
    catchError((thrown: unknown) => of(new Thrown(thrown))),
    // a call parked with its sub-agent's turn has no result yet: only its place in the batch goes on
    mergeMap((value) => (ctx.parked ? of(parkedSlot(call)) : endSlot(it, call, shownArgs, value, started))),
  );
}

/** The place of a call parked with its sub-agent (`SlotResult.parked`): no outcome, no event, nothing for history. */
function parkedSlot(call: PreparedCall): SlotResult {
  return { slot: call.slot, id: call.id, name: call.name, args: call.args, outcome: 'interrupted', success: false, content: '', output: '', durationMs: 0, parked: true };
}

/**
 * What the tool returned, as an Observable input of its value: its Observable's first value
 * (`first`; `undefined` when it completes without one), its promise (a thenable, adopted as a
 * promise), or the value itself.
 */
function answerOf(returned: unknown): ObservableInput<unknown> {
  if (isObservable(returned)) return returned.pipe(first(undefined, undefined));
  // reading `then` may throw (a hostile getter): `defer` fails the call with it
  if (typeof (returned as PromiseLike<unknown> | null)?.then === 'function') return Promise.resolve(returned);
  return of(returned);
}

/** What the tool threw or rejected with, or its deadline's error: a class of this module, so no value a tool returns is taken for it. */
class Thrown {
  constructor(readonly failure: unknown) {}
}

/** How the tool answered: `output` for a success; otherwise the failure (the result's error text, or what was thrown). */
interface Answer {
  readonly output?: string;
  readonly data?: unknown;
  readonly threw: boolean;
  readonly failure?: unknown;
}

/** The tool's value (or what it threw) as an answer; a value that cannot be read (a throwing getter) fails the call with what it threw. */
function toAnswer(value: unknown): Answer {
  if (typeof value === 'string') return { output: value, threw: false }; // the common case
  try {
    if (value instanceof Thrown) return { threw: true, failure: value.failure }; // `instanceof` may throw too (a revoked Proxy)
    const result: ToolResult = normalizeResult(value);
    if (result.success) return { output: result.output, data: result.data, threw: false };
    return { data: result.data, threw: false, failure: result.error ?? result.output };
  } catch (err) {
    return { threw: true, failure: err };
  }
}

/** The slot result, then its `tool-result` event (a consumer that cancels from the event keeps the result); then the `afterToolCall` hooks. */
function endSlot(it: IterationContext, call: PreparedCall, shownArgs: unknown, value: unknown, started: number): Observable<TurnEvent | SlotResult> {
  return new Observable<TurnEvent | SlotResult>((subscriber) => {
    const answer = toAnswer(value);
    const name = call.tool!.name;
    const durationMs = timed(it) ? it.resolved.clock.now() - started : 0;
    let outcome: SlotOutcome = 'failed';
    let text: string;
    let error: string | undefined;
    let errorType: string | undefined;
    if (answer.threw) {
      error = errorMessage(answer.failure);
      text = texts.thrown(name, error);
      errorType = errorTypeOf(answer.failure);
    } else if (answer.output !== undefined) {
      outcome = 'executed';
      text = answer.output.length > 0 ? answer.output : texts.noOutput;
    } else {
      error = answer.failure as string;
      text = texts.failed(error);
      errorType = 'failed';
    }
    const result = slotResult(it, call, outcome, outcome === 'executed', text, durationMs, answer.data, errorType);
    subscriber.next(result);
    emitToolResult(it, result, shownArgs, subscriber);
    if (it.resolved.hooks.afterToolCall?.length) {
      runAfterToolCallHooks(it, call, { success: outcome === 'executed', output: text, error, data: answer.data, durationMs });
    }
    subscriber.complete();
  });
}

/**
 * Whether anything reads a call's duration: its events, an observer, an `afterToolCall` hook or
 * the journal. A quiet turn without them reads no clock for its calls (two readings a call).
 */
function timed(it: IterationContext): boolean {
  const { turn, resolved } = it;
  return turn.quiet !== true || resolved.observers.length > 0 || turn.journal !== undefined || (resolved.hooks.afterToolCall?.length ?? 0) > 0;
}
