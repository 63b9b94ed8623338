import { asyncScheduler, from, isObservable, type ObservableInput, type SchedulerAction, type Subscriber, type Subscription } from 'rxjs';
import { texts, type PreparedCall, type SlotResult } from '../core/calls.js';
import { ToolTimeoutError } from '../core/errors.js';
import { MAX_TIMER_MS } from '../core/knobs.js';
import type { SlotOutcome, TurnEvent } from '../core/events.js';
import type { Ingress } from '../core/ingress.js';
import type { ToolContext, ToolResult } from '../core/tool.js';
import type { IterationContext } from '../runtime/resolved-execution.js';
import { reportLater } from './report-later.js';
import { switchModel } from '../runtime/switch-model.js';
import { runAfterToolCallHooks } from './after-tool-call-hooks.js';
import { errorMessage, errorTypeOf, normalizeResult } from './normalize-result.js';
import { emitToolResult } from './slot-events.js';
import { slotResult } from './slot-result.js';

/**
 * One executing call: the body of `executeOne`'s Observable for an executable call. It is also
 * the tool's context (`ctx`): only `signal`, `callId`, `ingress`, `conversationId` and `switchModel` are visible
 * to the tool. `start()` runs the tool; its result goes to the Subscriber as the slot result,
 * then the `tool-result` event; `unsubscribe()` (teardown) aborts the tool's signal and ignores a
 * late result.
 *
 * @example
 * ```ts
 * const run = new ToolRun(it, call, subscriber, shownArgs);
 * run.start();
 * return run; // its teardown
 * ```
 */
export class ToolRun implements ToolContext {
  readonly #it: IterationContext;
  readonly #call: PreparedCall;
  readonly #subscriber: Subscriber<TurnEvent | SlotResult>;
  readonly #shown: unknown;
  #start = 0;
  #controller: AbortController | undefined;
  #done = false;
  /** The subscription to the Observable the tool returned. */
  #sub: Subscription | undefined;
  /** The deadline's timer. */
  #timer: Subscription | undefined;

  constructor(it: IterationContext, call: PreparedCall, subscriber: Subscriber<TurnEvent | SlotResult>, shownArgs: unknown) {
    this.#it = it;
    this.#call = call;
    this.#subscriber = subscriber;
    this.#shown = shownArgs;
  }

  get callId(): string {
    return this.#call.id;
  }

  get ingress(): Ingress {
    return this.#it.turn.ingress;
  }

  get conversationId(): string | undefined {
    return this.#it.turn.conversationId;
  }

  /** Aborts on cancellation and on timeout; created on first use (or when the slot closes), so a late first read sees the abort. */
  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  /** Closes the slot's signal: aborted from now on, even for a tool that has not read it yet. */
  #abort(reason?: unknown): void {
    (this.#controller ??= new AbortController()).abort(reason);
  }

  switchModel(model: string): void {
    switchModel(this.#it, model);
  }

  /** Starts the tool. */
  start(): void {
    const tool = this.#call.tool!;
    if (timed(this.#it)) this.#start = this.#it.resolved.clock.now();
    let returned: unknown;
    let observable: boolean;
    let promise: boolean;
    const runTool = this.#it.resolved.runTool;
    try {
      returned = runTool ? runTool(this.#call, () => tool.execute(this.#call.args, this)) : tool.execute(this.#call.args, this);
      observable = isObservable(returned);
      promise = !observable && typeof (returned as PromiseLike<unknown> | null)?.then === 'function'; // a getter may throw
    } catch (err) {
      this.#fail(err);
      return;
    }
    if (!observable && !promise) return this.#finishValue(returned);
    if (observable) this.#subscribe(returned as ObservableInput<unknown>);
    else this.#awaitPromise(returned as PromiseLike<unknown>);
    // as RxJS's `timeout` operator does it: the timer starts once the source gave no value
    const timeoutMs = tool.timeoutMs ?? this.#it.resolved.knobs.toolTimeoutMs;
    if (timeoutMs !== undefined && timeoutMs <= MAX_TIMER_MS && !this.#done) this.#timer = asyncScheduler.schedule(ToolRun.#expire, timeoutMs, this);
  }

  /** Tears the call down (the call's teardown, an `Unsubscribable`): the tool's signal aborts and its late result is ignored. */
  unsubscribe(): void {
    this.#timer?.unsubscribe();
    this.#sub?.unsubscribe();
    if (this.#done) return;
    this.#done = true;
    this.#abort();
  }

  /** A promise settles straight from its callbacks; a settlement after teardown or the deadline is ignored. */
  #awaitPromise(promise: PromiseLike<unknown>): void {
    try {
      promise.then(
        (value) => this.#fulfilled(value),
        (err: unknown) => this.#rejected(err),
      );
    } catch (err) {
      this.#fail(err); // a thenable whose `then` throws
    }
  }

  /**
   * An Observable (or another ObservableInput): its first value finishes the call, and the
   * call's end tears the subscription down, as `take(1)` would; its completion without a value
   * finishes it with no value.
   */
  #subscribe(returned: ObservableInput<unknown>): void {
    const sub = from(returned).subscribe({
      next: (value) => this.#finishValue(value),
      error: (err: unknown) => this.#fail(err),
      complete: () => this.#finishValue(undefined),
    });
    if (this.#done) sub.unsubscribe(); // it answered while being subscribed
    else this.#sub = sub;
  }

  /**
   * The deadline's timer (RxJS's async scheduler, as the `timeout` operator sets it, so marble
   * tests see virtual time): the tool's Observable is torn down, its signal aborts with a
   * `ToolTimeoutError`, and the call fails with it.
   */
  static #expire(this: SchedulerAction<ToolRun>, run?: ToolRun): void {
    if (run === undefined || run.#done) return;
    const tool = run.#call.tool!;
    const err = new ToolTimeoutError(tool.name, tool.timeoutMs ?? run.#it.resolved.knobs.toolTimeoutMs!);
    run.#sub?.unsubscribe();
    run.#abort(err);
    run.#fail(err);
  }

  /** `#finishValue` from a promise's callback: what it throws is reported like RxJS reports it. */
  #fulfilled(value: unknown): void {
    try {
      this.#finishValue(value);
    } catch (err) {
      reportLater(err);
    }
  }

  /** `#fail` from a promise's callback: what it throws is reported like RxJS reports it. */
  #rejected(thrown: unknown): void {
    try {
      this.#fail(thrown);
    } catch (err) {
      reportLater(err);
    }
  }

  /** Finishes with what the tool returned; a value that cannot be read (a throwing getter) fails the call. */
  #finishValue(value: unknown): void {
    if (typeof value === 'string') return this.#finish(value, undefined, false, undefined); // the common case
    let result: ToolResult;
    try {
      result = normalizeResult(value);
    } catch (err) {
      return this.#fail(err);
    }
    if (result.success) this.#finish(result.output, result.data, false, undefined);
    else this.#finish(undefined, result.data, false, result.error ?? result.output);
  }

  /** Finishes with what the tool threw (`undefined` included). */
  #fail(thrown: unknown): void {
    this.#finish(undefined, undefined, true, thrown);
  }

  /** Ends the call: `output` for a success; otherwise the failure (the result's error text, or what was thrown). */
  #finish(output: string | undefined, data: unknown, threw: boolean, failure: unknown): void {
    if (this.#done) return;
    this.#done = true;
    const subscriber = this.#subscriber;
    if (subscriber.closed) {
      // The consumer left while the tool ran synchronously (it cancelled the turn itself): the
      // slot is closed `interrupted` downstream.
      this.#abort();
      return;
    }
    const it = this.#it;
    const call = this.#call;
    const name = call.tool!.name;
    const durationMs = timed(it) ? it.resolved.clock.now() - this.#start : 0;
    let outcome: SlotOutcome = 'failed';
    let text: string;
    let error: string | undefined;
    let errorType: string | undefined;
    if (threw) {
      error = errorMessage(failure);
      text = texts.thrown(name, error);
      errorType = errorTypeOf(failure);
    } else if (output !== undefined) {
      outcome = 'executed';
      text = output.length > 0 ? output : texts.noOutput;
    } else {
      error = failure as string;
      text = texts.failed(error);
      errorType = 'failed';
    }
    const result = slotResult(it, call, outcome, outcome === 'executed', text, durationMs, data, errorType);
    // The result before its event: a consumer that cancels from the event must not lose it.
    subscriber.next(result);
    emitToolResult(it, result, this.#shown, subscriber);
    if (it.resolved.hooks.afterToolCall?.length) {
      runAfterToolCallHooks(it, call, { success: outcome === 'executed', output: text, error, data, durationMs });
    }
    subscriber.complete();
  }
}

/**
 * Whether anything reads a call's duration: its events, an observer, an `afterToolCall` hook or
 * the journal. A quiet turn without them reads no clock for its calls (two readings a call).
 */
function timed(it: IterationContext): boolean {
  const { turn, resolved } = it;
  return turn.quiet !== true || resolved.observers.length > 0 || turn.journal !== undefined || (resolved.hooks.afterToolCall?.length ?? 0) > 0;
}
