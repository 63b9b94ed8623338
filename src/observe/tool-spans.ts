import { type Attributes, context, type Context, type Span, SpanKind, trace, type TimeInput, type Tracer } from '@opentelemetry/api';
import { isObservable, Observable } from 'rxjs';
import type { TurnEventOf } from '../core/events.js';
import type { ToolRunnerCall } from '../core/tool-runner.js';
import { scrubCredentials } from '../results/scrub.js';
import { scrubValue } from '../results/scrub-value.js';
import * as sc from './semconv.js';
import { markError, recordScrubbedException } from './span-errors.js';

/** What `ToolSpans` needs from the turn's spans. */
export interface ToolSpansScope {
  readonly tracer: Tracer;
  readonly agentSpan: Span;
  readonly agentContext: Context;
  readonly captureContent: boolean;
  /** The time to stamp, from the agent's clock (undefined: the SDK's own clock). */
  now(): TimeInput | undefined;
}

/**
 * The `execute_tool` spans of one turn. A call that executes (`tool-call` with `executes: true`)
 * gets an INTERNAL span, child of `invoke_agent`, from its `tool-call` to its `tool-result`; a
 * slot decided by preparation (denied, deduplicated, unknown, …) never ran, so it gets no span,
 * only an `rtl.tool.not_executed` event on `invoke_agent` naming its outcome. `runTool` runs a
 * tool's code inside its span's context, so spans the tool starts nest under it.
 *
 * @example
 * ```ts
 * const tools = new ToolSpans(scope);
 * tools.onCall(callEvent);
 * tools.runTool(call, () => tool.execute(args, ctx));
 * tools.onResult(resultEvent);
 * ```
 */
export class ToolSpans {
  private readonly open = new Map<string, Span>();

  constructor(private readonly scope: ToolSpansScope) {}

  /** Opens the span of a call that executes; a slot that never runs gets none. */
  onCall(event: TurnEventOf<'tool-call'>): void {
    if (!event.executes) return;
    const { scope } = this;
    const name = scrubCredentials(event.name);
    const attributes: Attributes = {
      [sc.ATTR_GEN_AI_OPERATION_NAME]: sc.GEN_AI_OPERATION_EXECUTE_TOOL,
      [sc.ATTR_GEN_AI_TOOL_NAME]: name,
      [sc.ATTR_GEN_AI_TOOL_CALL_ID]: event.id,
      [sc.ATTR_GEN_AI_TOOL_TYPE]: sc.GEN_AI_TOOL_TYPE_FUNCTION,
      [sc.ATTR_RTL_ITERATION]: event.iteration,
      [sc.ATTR_RTL_TOOL_SLOT]: event.slot,
    };
    // a field set, not a spread (bench/RESULTS.md, "Choices in src/ made for speed")
    if (scope.captureContent) attributes[sc.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = scrubCredentials(json(scrubValue(event.args)));
    const span = scope.tracer.startSpan(`${sc.GEN_AI_OPERATION_EXECUTE_TOOL} ${name}`, { kind: SpanKind.INTERNAL, startTime: scope.now(), attributes }, scope.agentContext);
    this.open.get(event.id)?.end(scope.now());
    this.open.set(event.id, span);
  }

  /**
   * Ends the call's span with its outcome: a failure sets `error.type` (the tool's error code or
   * class, `tool_timeout` for a timeout, `failed` for a reported failure) and records a thrown
   * error as an `exception` event. A slot without a span is noted on `invoke_agent`.
   */
  onResult(event: TurnEventOf<'tool-result'>): void {
    const { scope } = this;
    const span = this.open.get(event.id);
    if (!span) {
      const attributes: Attributes = {
        [sc.ATTR_GEN_AI_TOOL_NAME]: scrubCredentials(event.name),
        [sc.ATTR_GEN_AI_TOOL_CALL_ID]: event.id,
        [sc.ATTR_RTL_ITERATION]: event.iteration,
        [sc.ATTR_RTL_TOOL_SLOT]: event.slot,
        [sc.ATTR_RTL_TOOL_OUTCOME]: event.outcome,
      };
      if (!event.success) attributes[sc.ATTR_ERROR_TYPE] = event.outcome;
      scope.agentSpan.addEvent(sc.EVENT_RTL_TOOL_NOT_EXECUTED, attributes, scope.now());
      return;
    }
    this.open.delete(event.id);
    span.setAttribute(sc.ATTR_RTL_TOOL_OUTCOME, event.outcome);
    if (scope.captureContent) span.setAttribute(sc.ATTR_GEN_AI_TOOL_CALL_RESULT, scrubCredentials(event.output));
    if (!event.success) {
      const type = event.errorType ?? event.outcome;
      const message = scrubCredentials(event.output);
      if (event.errorType !== undefined && event.errorType !== 'failed') recordScrubbedException(span, type, message, undefined, scope.now());
      markError(span, type, message);
    }
    span.end(scope.now());
  }

  /** Ends every open span as `error.type` (the turn ended before these tools produced a result). */
  closeAll(openToolError: string): void {
    for (const span of this.open.values()) {
      markError(span, openToolError, 'the turn ended before this tool produced a result');
      span.end(this.scope.now());
    }
    this.open.clear();
  }

  /**
   * Runs a tool's code inside its `execute_tool` span's context (`context.with`), so spans the
   * tool starts nest under it; an Observable it returns is subscribed inside that context too,
   * and delivers back in the caller's. Without an open span, `run()` as it is.
   */
  runTool(call: ToolRunnerCall, run: () => unknown): unknown {
    const span = this.open.get(call.id);
    if (!span) return run();
    const inner = trace.setSpan(this.scope.agentContext, span);
    const outer = context.active();
    const value = context.with(inner, run);
    if (!isObservable(value)) return value;
    return new Observable<unknown>((subscriber) =>
      context.with(inner, () =>
        value.subscribe({
          next: (v) => context.with(outer, () => subscriber.next(v)),
          error: (err: unknown) => context.with(outer, () => subscriber.error(err)),
          complete: () => context.with(outer, () => subscriber.complete()),
        }),
      ),
    );
  }
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[unserializable arguments]';
  }
}
