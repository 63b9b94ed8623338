import { from, isObservable, Observable, take, throwError, timeout } from 'rxjs';
import { ToolTimeoutError } from '../errors.js';
import type { SlotOutcome } from '../observe/events.js';
import { runAfterToolCallHooks } from '../results/after-tool-call-hooks.js';
import { scrubCredentials } from '../results/scrub.js';
import { switchModel } from '../provider/switch-model.js';
import { truncateToolResult } from '../results/truncate.js';
import type { ToolContext, ToolResult } from '../tool/tool.js';
import { texts, type PreparedCall, type SlotResult } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { errorMessage, normalizeResult } from './normalize-result.js';
import { closeCard, NOT_SCRUBBED, openCard } from './slot-cards.js';

/** Per-slot progress of a batch: 0 not started, 1 card open (running), 2 closed. */
export type SlotProgress = Uint8Array;

/**
 * Runs one prepared call and closes its card. A filled slot only opens and closes its card.
 * An executable call opens its card right before the tool starts; the tool's signal aborts when
 * the subscription is torn down before the tool finished (cancellation) or on timeout.
 *
 * ```
 * call:    (p|)
 * tool:    ---r|
 * result:  ---(s|)     tool-call event at 0, tool-result event at 3
 * ```
 * @example
 * ```ts
 * executeOne(resolved, turn, prepared, progress).subscribe((slot) => results[slot.slot] = slot);
 * ```
 */
export function executeOne(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  call: PreparedCall,
  progress: SlotProgress,
): Observable<SlotResult> {
  return new Observable<SlotResult>((subscriber) => startCall(resolved, turn, call, progress, subscriber));
}

/** Where `startCall` reports a slot: its result, then its end. `closed` once the consumer left. */
export interface SlotSink {
  readonly closed: boolean;
  next(result: SlotResult): void;
  complete(): void;
}

/**
 * `executeOne` without the Observable around it, for dispatchers that run many calls: runs the
 * call, reports to `sink`, and returns the teardown (aborts the tool's signal when it had not
 * finished). Same events, same order, same cancellation points as `executeOne`.
 *
 * @example
 * ```ts
 * const teardown = startCall(resolved, turn, prepared, progress, { closed: false, next: keep, complete: done });
 * ```
 */
export function startCall(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  call: PreparedCall,
  progress: SlotProgress,
  sink: SlotSink,
): (() => void) | undefined {
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
  const tool = call.tool;
  const clock = resolved.clock;
  progress[slot] = 1;
  const shown = openCard(resolved, turn, call);
  // A consumer may cancel (or unsubscribe) from the tool-call event: then the tool never starts.
  if (sink.closed) return undefined;
  const start = clock.now();
  let controller: AbortController | undefined;
  let done = false;
  const ctx: ToolContext = {
    get signal() {
      return (controller ??= new AbortController()).signal;
    },
    callId: call.id,
    ingress: turn.ingress,
    switchModel: (model: string) => switchModel(resolved, turn, model),
  };
  const finish = (result: ToolResult, thrown?: unknown): void => {
    if (done) return;
    done = true;
    const durationMs = clock.now() - start;
    let outcome: SlotOutcome;
    let text: string;
    let error: string | undefined;
    if (thrown !== undefined) {
      outcome = 'failed';
      error = errorMessage(thrown);
      text = texts.thrown(tool.name, error);
    } else if (result.success) {
      outcome = 'executed';
      text = result.output.length > 0 ? result.output : texts.noOutput;
    } else {
      outcome = 'failed';
      error = result.error ?? result.output;
      text = texts.failed(error);
    }
    const slotRes = slotResult(resolved, call, outcome, outcome === 'executed', text, durationMs, turn, result.data);
    progress[slot] = 2;
    sink.next(slotRes);
    closeCard(resolved, turn, slotRes, shown);
    if (resolved.hooks.afterToolCall?.length) {
      runAfterToolCallHooks(resolved, turn, call, { success: outcome === 'executed', output: text, error, data: result.data, durationMs });
    }
    sink.complete();
  };
  let returned: unknown;
  try {
    returned = tool.execute(call.args, ctx);
  } catch (err) {
    finish(FAILED, err);
    return undefined;
  }
  const observable = isObservable(returned);
  if (!observable && typeof (returned as PromiseLike<unknown> | null)?.then !== 'function') {
    finish(normalizeResult(returned));
    return undefined;
  }
  const timeoutMs = tool.timeoutMs ?? resolved.knobs.toolTimeoutMs;
  if (!observable && timeoutMs === undefined) {
    // A promise without a deadline: settle straight from its callbacks (what `from(promise)` does,
    // without the subscriptions). Late settlements after teardown are ignored.
    (returned as PromiseLike<unknown>).then(
      (value) => settle(finish, normalizeResult(value)),
      (err: unknown) => settle(finish, FAILED, err),
    );
    return () => {
      if (done) return;
      done = true;
      controller?.abort();
    };
  }
  let source = from(returned as PromiseLike<unknown>).pipe(take(1));
  if (timeoutMs !== undefined) {
    source = source.pipe(
      timeout({ first: timeoutMs, with: () => throwError(() => new ToolTimeoutError(tool.name, timeoutMs)) }),
    );
  }
  const sub = source.subscribe({
    next: (value) => finish(normalizeResult(value)),
    error: (err: unknown) => {
      if (err instanceof ToolTimeoutError) controller?.abort(err);
      finish(FAILED, err);
    },
    complete: () => finish(normalizeResult(undefined)),
  });
  return () => {
    sub.unsubscribe();
    if (!done) controller?.abort();
  };
}

/** Runs `finish` from a promise callback; anything it throws is reported like RxJS reports it. */
function settle(finish: (result: ToolResult, thrown?: unknown) => void, result: ToolResult, thrown?: unknown): void {
  try {
    finish(result, thrown);
  } catch (err) {
    reportUnhandled(err);
  }
}

/** Rethrows on a clean stack, as RxJS does for errors no subscriber can receive. */
function reportUnhandled(err: unknown): void {
  setTimeout(() => {
    throw err;
  });
}

const FAILED: ToolResult = Object.freeze({ success: false, output: '' });

/**
 * Builds a slot result: the model-visible content is truncated (receipt appended for successful
 * executions); the event output is the truncated text, scrubbed, without the receipt.
 */
export function slotResult(
  resolved: ResolvedAgentExecution,
  call: PreparedCall,
  outcome: SlotOutcome,
  success: boolean,
  text: string,
  durationMs: number,
  turn?: TurnState,
  data?: unknown,
): SlotResult {
  const bounded = truncateToolResult(text, resolved.knobs.maxToolResultChars);
  let content = bounded;
  let receipt: string | undefined;
  if (outcome === 'executed' && resolved.receipts && turn) {
    receipt = resolved.receipts.generate(call.name, call.args, text, Math.floor(resolved.clock.now() / 1000));
    content = `${bounded}\n\n[receipt: ${receipt}]`;
    turn.receipts.push(receipt);
  }
  return {
    slot: call.slot,
    id: call.id,
    name: call.name,
    args: call.args,
    outcome,
    success,
    content,
    output: scrubCredentials(bounded),
    durationMs,
    ...(receipt !== undefined ? { receipt } : {}),
    ...(data !== undefined ? { data } : {}),
  };
}
