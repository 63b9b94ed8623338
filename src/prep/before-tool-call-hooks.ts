import { catchError, defaultIfEmpty, from, isObservable, mergeMap, type Observable, type ObservableInput, of, take } from 'rxjs';
import type { PreparedCall } from '../core/calls.js';
import type { BeforeToolCallHook } from '../core/hooks.js';
import { hookCall } from '../context/hook-call.js';
import type { PrepContext, PrepGate } from '../context/resolved-execution.js';
import { prepGate } from './prep-gate.js';
import { prepTexts } from './prep-texts.js';

/**
 * Runs the agent's `beforeToolCall` hooks in order. Each may keep the call (return nothing),
 * rewrite its name and/or arguments, or cancel it (`{ cancel: reason }` → `hook-cancelled`,
 * `Cancelled by hook: {reason}`, later hooks skipped). A hook that throws, rejects, errors or
 * returns something else is logged and ignored. Synchronous hooks run one after the other in a
 * loop; a hook that answers later holds the call (and the calls behind it) until it does.
 *
 * ```
 * call:   a----            hook 1 (sync): rename; hook 2 (async): ---k|
 * result: ---a'            a' renamed, kept by hook 2
 * ```
 * @example
 * ```ts
 * const agent = createAgent({ provider, model, tools, hooks: { beforeToolCall: [(call) =>
 *   call.name === 'rm' ? { cancel: 'deleting is disabled' } : undefined] } });
 * ```
 */
export const beforeToolCallHooks: PrepGate = prepGate((call, ctx) => {
  const hooks = ctx.resolved.hooks.beforeToolCall;
  return hooks && hooks.length > 0 ? runHooks(hooks, 0, call, ctx) : of(call);
});

/** The hooks from `start` on, in order: the call as the last one left it. */
function runHooks(hooks: readonly BeforeToolCallHook[], start: number, call: PreparedCall, ctx: PrepContext): Observable<PreparedCall> {
  let current = call;
  for (let i = start; i < hooks.length; i++) {
    let returned: unknown;
    let later: boolean;
    try {
      returned = hooks[i](hookCall(ctx.iteration, current));
      later = isAsync(returned); // reads the value: a Proxy or getter may throw here too
    } catch (err) {
      ignored(ctx, current, i, err);
      continue;
    }
    if (later) {
      const index = i;
      const at = current;
      return from(returned as ObservableInput<unknown>).pipe(
        take(1),
        defaultIfEmpty(undefined),
        catchError((err: unknown) => {
          ignored(ctx, at, index, err);
          return of(undefined);
        }),
        mergeMap((decision) => {
          const next = safeDecision(at, decision, ctx, index);
          return next.filled ? of(next) : runHooks(hooks, index + 1, next, ctx);
        }),
      );
    }
    current = safeDecision(current, returned, ctx, i);
    if (current.filled) return of(current);
  }
  return of(current);
}

function isAsync(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return (
    isObservable(value) ||
    typeof (value as PromiseLike<unknown>).then === 'function' ||
    Array.isArray(value) ||
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function' ||
    typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function'
  );
}

/** `applyDecision`, with a decision that throws while it is read (a getter, a Proxy) treated as a hook that threw. */
function safeDecision(call: PreparedCall, decision: unknown, ctx: PrepContext, index: number): PreparedCall {
  try {
    return applyDecision(call, decision, ctx, index);
  } catch (err) {
    ignored(ctx, call, index, err);
    return call;
  }
}

function applyDecision(call: PreparedCall, decision: unknown, ctx: PrepContext, index: number): PreparedCall {
  if (decision === undefined || decision === null) return call;
  if (typeof decision !== 'object') return invalid(ctx, call, index);
  const d = decision as { cancel?: unknown; name?: unknown; args?: unknown };
  if ('cancel' in d) {
    const reason = typeof d.cancel === 'string' ? d.cancel : String(d.cancel);
    return { ...call, filled: { outcome: 'hook-cancelled', output: prepTexts.hookCancelled(reason), success: false } };
  }
  const name = d.name;
  const args = d.args;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) return invalid(ctx, call, index);
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return invalid(ctx, call, index);
  if (name === undefined && args === undefined) return call;
  const rewritten = { ...call, name: (name as string | undefined) ?? call.name, args: (args as Record<string, unknown> | undefined) ?? call.args };
  if (rewritten.name !== call.name) delete (rewritten as { tool?: unknown }).tool; // resolved again by name
  return rewritten;
}

function invalid(ctx: PrepContext, call: PreparedCall, index: number): PreparedCall {
  ignored(ctx, call, index, new TypeError('beforeToolCall hook returned neither nothing, { name?, args? } nor { cancel }'));
  return call;
}

function ignored(ctx: PrepContext, call: PreparedCall, hook: number, err: unknown): void {
  try {
    ctx.resolved.logger.warn({ err, tool: call.name, toolCallId: call.id, hook }, 'beforeToolCall hook failed; ignored');
  } catch {
    // a logger that throws must not fail the turn
  }
}
