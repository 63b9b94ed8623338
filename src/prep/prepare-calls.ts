import { from, Observable, Subscription, take, type ObservableInput, type OperatorFunction } from 'rxjs';
import type { ParsedCall, PreparedCall } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { approvalGate } from './approval-gate.js';
import { beforeToolCallHooks } from './before-tool-call-hooks.js';
import { channelDefaults } from './channel-defaults.js';
import { clearApprovedMarker } from './clear-approved-marker.js';
import { dedupGuard } from './dedup-guard.js';
import { createPrepContext, isImmediate, type PrepContext, type PrepStep } from './prep-step.js';
import { promptLoopGuard } from './prompt-loop-guard.js';
import { resolveTool } from './resolve-tool.js';
import { restoreApprovedMarker } from './restore-approved-marker.js';
import { validateArgs } from './validate-args.js';

/**
 * Every preparation step, in the order BEHAVIOUR.md gives: hooks (they may rename) → resolve the
 * tool (unknown and excluded calls end here, before any prompt) → channel defaults → clear the
 * `approved` marker → validate the arguments (invalid calls are never prompted for) → prompt-loop
 * guard → approval gate → restore the marker → dedup guard. Each step skips itself when its
 * feature is not configured; `buildPrepSteps` drops those steps up front.
 */
export const defaultPrepSteps: readonly PrepStep[] = Object.freeze([
  beforeToolCallHooks,
  resolveTool,
  channelDefaults,
  clearApprovedMarker,
  validateArgs,
  promptLoopGuard,
  approvalGate,
  restoreApprovedMarker,
  dedupGuard,
]);

/**
 * Prepares each call in slot order, one at a time (so approval prompts are asked one at a
 * time): every step runs in order until the call is filled. Synchronous steps cost no
 * subscription; a step that waits holds back the calls behind it.
 *
 * ```
 * calls:    (abc|)
 * a prompt: ---y|
 * result:   ---a(bc|)
 * ```
 * @example
 * ```ts
 * from(parsed).pipe(prepareCalls(resolved, turn), dispatchCalls(resolved, turn));
 * ```
 */
export function prepareCalls(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  steps: readonly PrepStep[] = defaultPrepSteps,
): OperatorFunction<ParsedCall, PreparedCall> {
  return (source) =>
    new Observable<PreparedCall>((subscriber) => {
      const ctx: PrepContext = createPrepContext(resolved, turn);
      /** Calls that arrived while an earlier call waits on a step. */
      const queue: ParsedCall[] = [];
      let head = 0;
      /** The call being prepared when it waits on a step: where to resume it. */
      let resume: { draft: PreparedCall; at: number } | undefined;
      let waiting: Subscription | undefined;
      let busy = false;
      let sourceDone = false;

      // Prepares calls in order until one waits (`arrived` first: a call that found the queue
      // empty skips it); every synchronous step runs inline.
      const pump = (arrived?: ParsedCall): void => {
        if (busy) return;
        busy = true;
        let first = arrived;
        try {
          while (waiting === undefined && !subscriber.closed) {
            let draft: PreparedCall;
            let at = 0;
            if (resume !== undefined) {
              ({ draft, at } = resume);
              resume = undefined;
            } else if (first !== undefined) {
              draft = toPrepared(first);
              first = undefined;
            } else if (head < queue.length) {
              const call = queue[head];
              queue[head++] = undefined as unknown as ParsedCall;
              draft = toPrepared(call);
            } else {
              break;
            }
            const decided = runSteps(steps, draft, at, ctx, wait);
            if (decided !== undefined) subscriber.next(decided);
          }
          if (waiting === undefined && head >= queue.length) {
            queue.length = 0;
            head = 0;
            if (sourceDone) subscriber.complete();
          }
        } catch (err) {
          subscriber.error(err);
        } finally {
          busy = false;
        }
      };

      // A step returned an ObservableInput: its first value resumes the call at the next step;
      // completing without one drops the call (the batch closes it `interrupted`).
      const wait = (pending: ObservableInput<PreparedCall>, at: number): void => {
        let settled = false;
        const placeholder = new Subscription();
        waiting = placeholder;
        const sub = from(pending)
          .pipe(take(1))
          .subscribe({
            next: (decided) => {
              resume = { draft: decided, at };
            },
            error: (err: unknown) => subscriber.error(err),
            complete: () => {
              settled = true;
              waiting = undefined;
              pump();
            },
          });
        if (!settled) waiting = sub;
      };

      const sourceSub = source.subscribe({
        next: (call) => {
          if (busy || waiting !== undefined || head < queue.length) {
            queue.push(call);
            pump();
          } else {
            pump(call);
          }
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          sourceDone = true;
          pump();
        },
      });
      return () => {
        sourceSub.unsubscribe();
        waiting?.unsubscribe();
      };
    });
}

/** A parsed call as the first draft of its preparation. */
export const toPrepared = (call: ParsedCall): PreparedCall => ({
  call,
  slot: call.slot,
  id: call.id,
  name: call.name,
  args: call.args,
  // Present from the start, so a step's `{ ...call, tool }` replaces a field instead of adding
  // one: on Node 20 (V8 11.3) adding a field after a spread takes a slow path (~0.5-1 µs each,
  // against ~20 ns to replace one), and every call goes through a few of these.
  tool: undefined,
  filled: undefined,
  prompted: undefined,
});

/**
 * Runs the steps from `from0` until the call is filled or decided; returns it, or undefined after
 * handing a step that must wait to `wait` (with the index to resume at).
 */
function runSteps(
  steps: readonly PrepStep[],
  draft: PreparedCall,
  from0: number,
  ctx: PrepContext,
  wait: (pending: ObservableInput<PreparedCall>, at: number) => void,
): PreparedCall | undefined {
  let current = draft;
  for (let i = from0; i < steps.length && !current.filled; i++) {
    const next = steps[i](current, ctx);
    if (next === current) continue; // the common case: the step had nothing to do
    if (isImmediate(next)) {
      current = next;
      continue;
    }
    wait(next, i + 1);
    return undefined;
  }
  return current;
}
