import { from, isObservable, take, throwError, timeout, type ObservableInput, type Subscription } from 'rxjs';
import { ToolTimeoutError } from '../errors.js';
import type { SlotOutcome } from '../observe/events.js';
import { switchModel } from '../provider/switch-model.js';
import { runAfterToolCallHooks } from '../results/after-tool-call-hooks.js';
import type { Tool, ToolContext, ToolResult } from '../tool/tool.js';
import { INTERRUPTED, texts, type PreparedCall, type SlotResult } from '../turn/calls.js';
import type { Ingress } from '../turn/ingress.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { errorMessage, normalizeResult } from './normalize-result.js';
import { closeCard, NOT_SCRUBBED, openCard } from './slot-cards.js';
import { slotResult } from './slot-result.js';

/** Per-slot progress of a batch: 0 not started, 1 card open (running), 2 closed. */
export type SlotProgress = Uint8Array;

/** What the calls of one batch share: the agent, the turn, and the batch's slot progress. */
export interface CallScope {
  readonly resolved: ResolvedAgentExecution;
  readonly turn: TurnState;
  readonly progress: SlotProgress;
  /**
   * A clock reading taken before the batch started; start times are kept relative to it, so a
   * millisecond clock's start time is a small integer (a wall-clock reading is a boxed number).
   */
  readonly epoch: number;
}

/** Where `startCall` reports a slot: its result, then its end. `closed` once the consumer left. */
export interface SlotSink {
  readonly closed: boolean;
  next(result: SlotResult): void;
  complete(): void;
}

/** A call whose tool is running; `stopCall` tears it down. */
export type CallHandle = RunningCall;

/**
 * `executeOne` without an Observable around it, for dispatchers that run many calls: runs the
 * call and reports to `sink`. Returns a handle while the tool runs (undefined when the slot
 * ended at once); `stopCall(handle)` tears it down. Same events, same order, same cancellation
 * points as `executeOne`.
 *
 * @example
 * ```ts
 * const running = startCall({ resolved, turn, progress, epoch: 0 }, prepared, { closed: false, next: keep, complete: done });
 * if (running) stopCall(running); // cancelled: its signal aborts
 * ```
 */
export function startCall(scope: CallScope, call: PreparedCall, sink: SlotSink): CallHandle | undefined {
  const { resolved, turn, progress } = scope;
  const { slot } = call;
  if (call.filled || !call.tool) {
    const filled = call.filled ?? INTERRUPTED;
    const shown = progress[slot] === 0 ? openCard(resolved, turn, call) : NOT_SCRUBBED;
    const result = slotResult(resolved, call, filled.outcome, filled.success, filled.output, 0);
    progress[slot] = 2;
    // Deliver before the event: a consumer that cancels from the tool-result event must not lose the result.
    sink.next(result);
    closeCard(resolved, turn, result, shown);
    sink.complete();
    return undefined;
  }
  if (turn.cancelled()) {
    sink.complete();
    return undefined;
  }
  progress[slot] = 1;
  const shown = openCard(resolved, turn, call);
  // A consumer may cancel (or unsubscribe) from the tool-call event: then the tool never starts.
  if (sink.closed) return undefined;
  const running = new RunningCall(scope, call, sink, shown);
  if (!RunningCall.run(running)) return undefined;
  // The tool cancelled the turn synchronously: the consumer left before it could hold this handle.
  if (sink.closed) {
    RunningCall.stop(running);
    return undefined;
  }
  return running;
}

/** Tears a running call down: the tool's signal aborts and its late result is ignored. */
export function stopCall(handle: CallHandle): void {
  RunningCall.stop(handle);
}

/**
 * One executing call. It is also the tool's context (`ctx`): only `signal`, `callId`, `ingress`
 * and `switchModel` are visible to the tool; the rest is private. One object per call instead
 * of a context literal and a handful of closures, and as small as it can be: at a cap of
 * 10,000 every call of a batch is alive at once, and each young-generation collection copies
 * all of them.
 */
class RunningCall implements ToolContext {
  readonly #scope: CallScope;
  readonly #call: PreparedCall;
  readonly #sink: SlotSink;
  readonly #shown: unknown;
  /** Clock reading at start, minus the scope's epoch. */
  #start = 0;
  #controller: AbortController | undefined;
  #done = false;
  #sub: Subscription | undefined;

  constructor(scope: CallScope, call: PreparedCall, sink: SlotSink, shown: unknown) {
    this.#scope = scope;
    this.#call = call;
    this.#sink = sink;
    this.#shown = shown;
  }

  get callId(): string {
    return this.#call.id;
  }

  get ingress(): Ingress {
    return this.#scope.turn.ingress;
  }

  /** Aborts on cancellation and on timeout; created on first use. */
  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  switchModel(model: string): void {
    switchModel(this.#scope.resolved, this.#scope.turn, model);
  }

  /** Starts the tool; true while it runs (it has not finished synchronously). */
  static run(call: RunningCall): boolean {
    return call.#run();
  }

  static stop(call: RunningCall): void {
    call.#stop();
  }

  #run(): boolean {
    const tool = this.#call.tool!;
    this.#start = this.#scope.resolved.clock.now() - this.#scope.epoch;
    let returned: unknown;
    let observable: boolean;
    let promise: boolean;
    try {
      returned = tool.execute(this.#call.args, this);
      observable = isObservable(returned);
      promise = !observable && typeof (returned as PromiseLike<unknown> | null)?.then === 'function'; // a getter may throw
    } catch (err) {
      this.#fail(err);
      return false;
    }
    if (!observable && !promise) {
      this.#finishValue(returned);
      return false;
    }
    const timeoutMs = tool.timeoutMs ?? this.#scope.resolved.knobs.toolTimeoutMs;
    if (!observable && timeoutMs === undefined) {
      this.#awaitPromise(returned as PromiseLike<unknown>);
      return !this.#done;
    }
    this.#subscribe(returned as ObservableInput<unknown>, tool, timeoutMs);
    return !this.#done;
  }

  /**
   * A promise without a deadline settles straight from its callbacks (what `from(promise)`
   * does, without the subscriptions); a settlement after teardown is ignored. A method of its
   * own, so its two callbacks share a context holding only `this`.
   */
  #awaitPromise(promise: PromiseLike<unknown>): void {
    try {
      promise.then(
        (value) => this.#settle(false, value),
        (err: unknown) => this.#settle(true, err),
      );
    } catch (err) {
      this.#fail(err); // a thenable whose `then` throws
    }
  }

  /** An Observable, or a promise with a deadline: the first value finishes the call. */
  #subscribe(returned: ObservableInput<unknown>, tool: Tool, timeoutMs: number | undefined): void {
    let source = from(returned).pipe(take(1));
    if (timeoutMs !== undefined) {
      source = source.pipe(timeout({ first: timeoutMs, with: () => throwError(() => new ToolTimeoutError(tool.name, timeoutMs)) }));
    }
    this.#sub = source.subscribe({
      next: (value) => this.#finishValue(value),
      error: (err: unknown) => {
        if (err instanceof ToolTimeoutError) this.#controller?.abort(err);
        this.#fail(err);
      },
      complete: () => this.#finishValue(undefined),
    });
  }

  #stop(): void {
    this.#sub?.unsubscribe();
    if (this.#done) return;
    this.#done = true;
    this.#controller?.abort();
  }

  /** `#finishValue` or `#fail` from a promise callback: what it throws is reported like RxJS reports it. */
  #settle(rejected: boolean, value: unknown): void {
    try {
      if (rejected) this.#fail(value);
      else this.#finishValue(value);
    } catch (err) {
      setTimeout(() => {
        throw err;
      });
    }
  }

  /** Finishes with what the tool returned; a value that cannot be read (a throwing getter) fails the call. */
  #finishValue(value: unknown): void {
    if (typeof value === 'string') {
      this.#finish(value, undefined, false, undefined); // the common case, without a ToolResult
      return;
    }
    let result: ToolResult;
    try {
      result = normalizeResult(value);
    } catch (err) {
      this.#fail(err);
      return;
    }
    if (result.success) this.#finish(result.output, result.data, false, undefined);
    else this.#finish(undefined, result.data, false, result.error ?? result.output);
  }

  /** Finishes with what the tool threw (`undefined` included). */
  #fail(thrown: unknown): void {
    this.#finish(undefined, undefined, true, thrown);
  }

  /**
   * Ends the call: `output` for a success; otherwise the failure (`failure`: the result's
   * error text, or what was thrown when `threw`).
   */
  #finish(output: string | undefined, data: unknown, threw: boolean, failure: unknown): void {
    if (this.#done) return;
    this.#done = true;
    if (this.#sink.closed) {
      // The consumer left while the tool ran synchronously (it cancelled the turn itself), before
      // this call could be stopped: the slot is closed as interrupted by the dispatcher.
      this.#controller?.abort();
      return;
    }
    const resolved = this.#scope.resolved;
    const turn = this.#scope.turn;
    const call = this.#call;
    const tool = call.tool!;
    const durationMs = resolved.clock.now() - this.#scope.epoch - this.#start;
    let outcome: SlotOutcome;
    let text: string;
    let error: string | undefined;
    if (threw) {
      outcome = 'failed';
      error = errorMessage(failure);
      text = texts.thrown(tool.name, error);
    } else if (output !== undefined) {
      outcome = 'executed';
      text = output.length > 0 ? output : texts.noOutput;
    } else {
      outcome = 'failed';
      error = failure as string;
      text = texts.failed(error);
    }
    const slotRes = slotResult(resolved, call, outcome, outcome === 'executed', text, durationMs, turn, data);
    this.#scope.progress[call.slot] = 2;
    this.#sink.next(slotRes);
    closeCard(resolved, turn, slotRes, this.#shown);
    if (resolved.hooks.afterToolCall?.length) {
      runAfterToolCallHooks(resolved, turn, call, { success: outcome === 'executed', output: text, error, data, durationMs });
    }
    this.#sink.complete();
  }
}
