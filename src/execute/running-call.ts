import { from, isObservable, take, throwError, timeout, type Subscription } from 'rxjs';
import { ToolTimeoutError } from '../errors.js';
import type { SlotOutcome } from '../observe/events.js';
import { switchModel } from '../provider/switch-model.js';
import { runAfterToolCallHooks } from '../results/after-tool-call-hooks.js';
import type { ToolContext, ToolResult } from '../tool/tool.js';
import { texts, type PreparedCall, type SlotResult } from '../turn/calls.js';
import type { Ingress } from '../turn/ingress.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { errorMessage, normalizeResult } from './normalize-result.js';
import { closeCard, NOT_SCRUBBED, openCard } from './slot-cards.js';
import { slotResult } from './slot-result.js';

/** Per-slot progress of a batch: 0 not started, 1 card open (running), 2 closed. */
export type SlotProgress = Uint8Array;

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
 * const running = startCall(resolved, turn, prepared, progress, { closed: false, next: keep, complete: done });
 * if (running) stopCall(running); // cancelled: its signal aborts
 * ```
 */
export function startCall(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  call: PreparedCall,
  progress: SlotProgress,
  sink: SlotSink,
): CallHandle | undefined {
  const { slot } = call;
  if (call.filled || !call.tool) {
    const filled = call.filled ?? { outcome: 'interrupted' as const, output: texts.interrupted, success: false };
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
  const running = new RunningCall(resolved, turn, call, progress, sink, shown);
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
 * of a context literal and a handful of closures.
 */
class RunningCall implements ToolContext {
  readonly callId: string;
  readonly ingress: Ingress;
  readonly #resolved: ResolvedAgentExecution;
  readonly #turn: TurnState;
  readonly #call: PreparedCall;
  readonly #progress: SlotProgress;
  readonly #sink: SlotSink;
  readonly #shown: unknown;
  #start = 0;
  #controller: AbortController | undefined;
  #done = false;
  #sub: Subscription | undefined;

  constructor(resolved: ResolvedAgentExecution, turn: TurnState, call: PreparedCall, progress: SlotProgress, sink: SlotSink, shown: unknown) {
    this.callId = call.id;
    this.ingress = turn.ingress;
    this.#resolved = resolved;
    this.#turn = turn;
    this.#call = call;
    this.#progress = progress;
    this.#sink = sink;
    this.#shown = shown;
  }

  /** Aborts on cancellation and on timeout; created on first use. */
  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  switchModel(model: string): void {
    switchModel(this.#resolved, this.#turn, model);
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
    this.#start = this.#resolved.clock.now();
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
    const timeoutMs = tool.timeoutMs ?? this.#resolved.knobs.toolTimeoutMs;
    if (!observable && timeoutMs === undefined) {
      // A promise without a deadline settles straight from its callbacks (what `from(promise)`
      // does, without the subscriptions); a settlement after teardown is ignored.
      try {
        (returned as PromiseLike<unknown>).then(
          (value) => this.#settle(false, value),
          (err: unknown) => this.#settle(true, err),
        );
      } catch (err) {
        this.#fail(err); // a thenable whose `then` throws
      }
      return !this.#done;
    }
    let source = from(returned as PromiseLike<unknown>).pipe(take(1));
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
    return !this.#done;
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
    const resolved = this.#resolved;
    const turn = this.#turn;
    const call = this.#call;
    const tool = call.tool!;
    const durationMs = resolved.clock.now() - this.#start;
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
    this.#progress[call.slot] = 2;
    this.#sink.next(slotRes);
    closeCard(resolved, turn, slotRes, this.#shown);
    if (resolved.hooks.afterToolCall?.length) {
      runAfterToolCallHooks(resolved, turn, call, { success: outcome === 'executed', output: text, error, data, durationMs });
    }
    this.#sink.complete();
  }
}
