import { context, type Context, type Span, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { scrubCredentials } from '../results/scrub.js';
import { scrubValue } from '../results/scrub-value.js';
import type { TurnEvent } from '../core/events.js';
import * as sc from './semconv.js';

/** What the turn's spans are named and tagged with. */
export interface TurnSpanOptions {
  /** The agent's alias: `invoke_agent {agent}`, `gen_ai.agent.name`. */
  readonly agent: string;
  /** The requested model: `chat {model}`, `gen_ai.request.model`. */
  readonly model: string;
  /** The provider's name (`gen_ai.provider.name`). */
  readonly provider?: string;
  /** The turn's id (`gen_ai.conversation.id`). */
  readonly turnId?: string;
  /** Record tool arguments and results on `execute_tool` spans (scrubbed). Default false. */
  readonly captureContent?: boolean;
  /** The parent of `invoke_agent` (default: the context active when the turn is subscribed). */
  readonly parentContext?: Context;
}

const STATUS_CHARS = 200;

/**
 * The OpenTelemetry spans of one turn, driven by its events: `invoke_agent` (INTERNAL) for the
 * turn, a `chat` (CLIENT) span per provider request and an `execute_tool` (INTERNAL) span per
 * slot, from its `tool-call` to its `tool-result`. Every child's parent context is passed
 * explicitly (never taken from async-local storage). Used by `traceTurn`.
 *
 * @example
 * ```ts
 * const spans = new TurnSpans(tracer, { agent: 'helper', model: 'gpt-4o-mini' });
 * events.forEach((e) => spans.on(e));
 * spans.complete();
 * ```
 */
export class TurnSpans {
  private readonly agentSpan: Span;
  private readonly agentContext: Context;
  private chat?: Span;
  private readonly tools = new Map<string, Span>();
  private inputTokens = 0;
  private outputTokens = 0;
  private ended = false;

  constructor(
    private readonly tracer: Tracer,
    private readonly options: TurnSpanOptions,
  ) {
    const parent = options.parentContext ?? context.active();
    this.agentSpan = tracer.startSpan(
      `${sc.GEN_AI_OPERATION_INVOKE_AGENT} ${options.agent}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [sc.ATTR_GEN_AI_OPERATION_NAME]: sc.GEN_AI_OPERATION_INVOKE_AGENT,
          [sc.ATTR_GEN_AI_AGENT_NAME]: options.agent,
          [sc.ATTR_GEN_AI_REQUEST_MODEL]: options.model,
          ...(options.provider !== undefined ? { [sc.ATTR_GEN_AI_PROVIDER_NAME]: options.provider } : {}),
          ...(options.turnId !== undefined ? { [sc.ATTR_GEN_AI_CONVERSATION_ID]: options.turnId } : {}),
        },
      },
      parent,
    );
    this.agentContext = trace.setSpan(parent, this.agentSpan);
  }

  /** Updates the spans for one event. */
  on(event: TurnEvent): void {
    if (this.ended) return;
    switch (event.type) {
      case 'iteration':
        this.endChat();
        this.chat = this.tracer.startSpan(
          `${sc.GEN_AI_OPERATION_CHAT} ${this.options.model}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              [sc.ATTR_GEN_AI_OPERATION_NAME]: sc.GEN_AI_OPERATION_CHAT,
              [sc.ATTR_GEN_AI_REQUEST_MODEL]: this.options.model,
              ...(this.options.provider !== undefined ? { [sc.ATTR_GEN_AI_PROVIDER_NAME]: this.options.provider } : {}),
              [sc.ATTR_RTL_ITERATION]: event.iteration,
            },
          },
          this.agentContext,
        );
        return;
      case 'usage':
        this.inputTokens += event.inputTokens;
        this.outputTokens += event.outputTokens;
        this.chat?.setAttributes({
          [sc.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: event.inputTokens,
          [sc.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: event.outputTokens,
        });
        return;
      case 'approval-request':
        this.endChat();
        return;
      case 'tool-call':
        this.endChat();
        this.startTool(event);
        return;
      case 'tool-result':
        this.endTool(event);
        return;
      case 'done':
        this.agentSpan.setAttributes({ [sc.ATTR_RTL_TURN_REASON]: event.reason, [sc.ATTR_RTL_TURN_ITERATIONS]: event.iterations });
        this.complete();
        return;
      default:
        return;
    }
  }

  /** Ends every open span (the turn completed, or was unsubscribed before `done`). */
  complete(reason?: string): void {
    if (this.ended) return;
    if (reason !== undefined) this.agentSpan.setAttribute(sc.ATTR_RTL_TURN_REASON, reason);
    this.closeAll('interrupted');
  }

  /** Ends every open span with the turn's error (`error.type`: its ToolLoopError code). */
  fail(err: unknown): void {
    if (this.ended) return;
    const type = errorType(err);
    const message = scrubCredentials(err instanceof Error ? err.message : String(err)).slice(0, STATUS_CHARS);
    markError(this.chat, type, message);
    markError(this.agentSpan, type, message);
    this.closeAll(type);
  }

  private closeAll(openToolError: string): void {
    this.ended = true;
    this.endChat();
    for (const span of this.tools.values()) {
      markError(span, openToolError, 'the turn ended before this tool produced a result');
      span.end();
    }
    this.tools.clear();
    if (this.inputTokens > 0 || this.outputTokens > 0) {
      this.agentSpan.setAttributes({
        [sc.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: this.inputTokens,
        [sc.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: this.outputTokens,
      });
    }
    this.agentSpan.end();
  }

  private endChat(): void {
    this.chat?.end();
    this.chat = undefined;
  }

  private startTool(event: Extract<TurnEvent, { type: 'tool-call' }>): void {
    const name = scrubCredentials(event.name);
    const span = this.tracer.startSpan(
      `${sc.GEN_AI_OPERATION_EXECUTE_TOOL} ${name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [sc.ATTR_GEN_AI_OPERATION_NAME]: sc.GEN_AI_OPERATION_EXECUTE_TOOL,
          [sc.ATTR_GEN_AI_TOOL_NAME]: name,
          [sc.ATTR_GEN_AI_TOOL_CALL_ID]: event.id,
          [sc.ATTR_GEN_AI_TOOL_TYPE]: sc.GEN_AI_TOOL_TYPE_FUNCTION,
          [sc.ATTR_RTL_ITERATION]: event.iteration,
          [sc.ATTR_RTL_TOOL_SLOT]: event.slot,
          ...(this.options.captureContent ? { [sc.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: scrubCredentials(json(scrubValue(event.args))) } : {}),
        },
      },
      this.agentContext,
    );
    this.tools.get(event.id)?.end();
    this.tools.set(event.id, span);
  }

  private endTool(event: Extract<TurnEvent, { type: 'tool-result' }>): void {
    const span = this.tools.get(event.id);
    if (!span) return;
    this.tools.delete(event.id);
    span.setAttribute(sc.ATTR_RTL_TOOL_OUTCOME, event.outcome);
    if (this.options.captureContent) span.setAttribute(sc.ATTR_GEN_AI_TOOL_CALL_RESULT, scrubCredentials(event.output));
    if (!event.success) markError(span, event.outcome, scrubCredentials(event.output).slice(0, STATUS_CHARS));
    span.end();
  }
}

function markError(span: Span | undefined, type: string, message: string): void {
  if (!span) return;
  span.setAttribute(sc.ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** A ToolLoopError's `code`, else the error's name (`_OTHER` when there is none). */
function errorType(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.length > 0) return code;
  return err instanceof Error && err.name ? err.name : '_OTHER';
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[unserializable arguments]';
  }
}
