import { concatMap, defer, from, mergeMap, take, type Observable, type OperatorFunction } from 'rxjs';
import type { ParsedCall, PreparedCall } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { isImmediate, type PrepContext, type PrepStep } from './prep-step.js';
import { resolveTool } from './resolve-tool.js';
import { validateArgs } from './validate-args.js';

/** The preparation steps, in the order BEHAVIOUR.md gives. */
export const defaultPrepSteps: readonly PrepStep[] = [resolveTool, validateArgs];

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
    defer(() => {
      const ctx: PrepContext = { resolved, turn, seen: new Set(), promptedInBatch: new Set() };
      return source.pipe(concatMap((call) => runSteps(steps, toPrepared(call), 0, ctx)));
    });
}

/** A parsed call as the first draft of its preparation. */
export const toPrepared = (call: ParsedCall): PreparedCall => ({
  call,
  slot: call.slot,
  id: call.id,
  name: call.name,
  args: call.args,
});

function runSteps(steps: readonly PrepStep[], draft: PreparedCall, from0: number, ctx: PrepContext): Observable<PreparedCall> | PreparedCall[] {
  let current = draft;
  for (let i = from0; i < steps.length && !current.filled; i++) {
    const next = steps[i](current, ctx);
    if (isImmediate(next)) {
      current = next;
      continue;
    }
    return from(next).pipe(
      take(1),
      mergeMap((decided) => runSteps(steps, decided, i + 1, ctx)),
    );
  }
  return [current];
}

