import { context, type Attributes, type Context, type Span, SpanKind, trace, type TimeInput, type Tracer } from '@opentelemetry/api';
import { readThrown, thrownMessage } from '../core/read-thrown.js';
import type { TurnEvent, TurnEventOf } from '../core/events.js';
import type { ToolRunnerCall } from '../core/tool-runner.js';
import { scrubCredentials } from '../results/scrub.js';
import * as sc from './semconv.js';
import { errorType, markError, recordScrubbedException } from './span-errors.js';
import { ToolSpans } from './tool-spans.js';

/** What the turn's spans are named and tagged with. */
export interface TurnSpanOptions {
  /** The agent's alias: `invoke_agent {agent}`, `gen_ai.agent.name`. */
  readonly agent: string;
  /** The agent's model: `invoke_agent`'s `gen_ai.request.model`, and `chat {model}` when an `iteration` event names none. */
  readonly model: string;
  /** `gen_ai.provider.name`: a GenAI conventions value (`openai`, …), e.g. the provider's `telemetryName`. */
  readonly provider?: string;
  /** The turn's own id (`rtl.turn.id`). */
  readonly turnId?: string;
  /** The conversation's id, kept across its turns (`gen_ai.conversation.id`). */
  readonly conversationId?: string;
  /** The requests' temperature (`gen_ai.request.temperature` on `chat`). */
  readonly temperature?: number;
  /** The provider's server (`server.address` / `server.port` on `chat`). */
  readonly server?: { readonly address: string; readonly port?: number };
  /** Record tool arguments and results on `execute_tool` spans (scrubbed). Default false. */
  readonly captureContent?: boolean;
  /** The parent of `invoke_agent` (default: the context active when the turn is subscribed). */
  readonly parentContext?: Context;
  /**
   * Stamp spans with this clock (the agent's), so span durations agree with the events'
   * `durationMs` (virtual time included). Default: the SDK's own clock.
   */
  readonly clock?: { now(): number };
}

/**
 * The OpenTelemetry spans of one turn, driven by its events: `invoke_agent` (INTERNAL) for the
 * turn, a `chat {model}` (CLIENT) span per provider request — the model the request went to, with
 * the response's model, id and finish reason when the provider reports them — and an
 * `execute_tool` (INTERNAL) span per call that executes (`ToolSpans`). Every child's parent
 * context is passed explicitly (never taken from async-local storage). Used by `traceTurn`.
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
  private readonly tools: ToolSpans;
  private chat?: Span;
  private inputTokens = 0;
  private outputTokens = 0;
  private ended = false;

  constructor(
    private readonly tracer: Tracer,
    private readonly options: TurnSpanOptions,
  ) {
    const parent = options.parentContext ?? context.active();
    const attributes: Attributes = {
      [sc.ATTR_GEN_AI_OPERATION_NAME]: sc.GEN_AI_OPERATION_INVOKE_AGENT,
      [sc.ATTR_GEN_AI_AGENT_NAME]: options.agent,
      [sc.ATTR_GEN_AI_REQUEST_MODEL]: options.model,
    };
    this.addShared(attributes);
    if (options.turnId !== undefined) attributes[sc.ATTR_RTL_TURN_ID] = options.turnId;
    this.agentSpan = tracer.startSpan(`${sc.GEN_AI_OPERATION_INVOKE_AGENT} ${options.agent}`, { kind: SpanKind.INTERNAL, startTime: this.now(), attributes }, parent);
    this.agentContext = trace.setSpan(parent, this.agentSpan);
    this.tools = new ToolSpans({
      tracer,
      agentSpan: this.agentSpan,
      agentContext: this.agentContext,
      captureContent: options.captureContent === true,
      now: () => this.now(),
    });
  }

  /** Updates the spans for one event. */
  on(event: TurnEvent): void {
    if (this.ended) return;
    switch (event.type) {
      case 'iteration':
        this.startChat(event);
        return;
      case 'usage':
        this.inputTokens += event.inputTokens;
        this.outputTokens += event.outputTokens;
        this.chat?.setAttributes({
          [sc.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: event.inputTokens,
          [sc.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: event.outputTokens,
        });
        return;
      case 'response': {
        const attributes: Attributes = {};
        if (event.responseModel !== undefined) attributes[sc.ATTR_GEN_AI_RESPONSE_MODEL] = event.responseModel;
        if (event.responseId !== undefined) attributes[sc.ATTR_GEN_AI_RESPONSE_ID] = event.responseId;
        if (event.finishReason !== undefined) attributes[sc.ATTR_GEN_AI_RESPONSE_FINISH_REASONS] = [event.finishReason];
        this.chat?.setAttributes(attributes);
        return;
      }
      case 'approval-request':
        this.endChat();
        return;
      case 'tool-call':
        this.endChat();
        this.tools.onCall(event);
        return;
      case 'tool-result':
        this.tools.onResult(event);
        return;
      case 'done':
        this.agentSpan.setAttributes({ [sc.ATTR_RTL_TURN_REASON]: event.reason, [sc.ATTR_RTL_TURN_ITERATIONS]: event.iterations });
        this.complete();
        return;
      default:
        return;
    }
  }

  /** Runs a tool's code inside its `execute_tool` span's context (see `ToolSpans.runTool`). */
  runTool(call: ToolRunnerCall, run: () => unknown): unknown {
    return this.ended ? run() : this.tools.runTool(call, run);
  }

  /** Ends every open span (the turn completed, or was unsubscribed before `done`). */
  complete(reason?: string): void {
    if (this.ended) return;
    if (reason !== undefined) this.agentSpan.setAttribute(sc.ATTR_RTL_TURN_REASON, reason);
    this.closeAll('interrupted');
  }

  /** Ends every open span with the turn's error: `error.type` is its ToolLoopError code (else its class), recorded as an exception. */
  fail(err: unknown): void {
    if (this.ended) return;
    const type = errorType(err);
    const message = scrubCredentials(thrownMessage(err));
    const stack = readThrown(err, 'stack');
    for (const span of [this.chat, this.agentSpan]) {
      recordScrubbedException(span, type, message, typeof stack === 'string' ? stack : undefined, this.now());
      markError(span, type, message);
    }
    this.closeAll(type);
  }

  private closeAll(openToolError: string): void {
    this.ended = true;
    this.endChat();
    this.tools.closeAll(openToolError);
    if (this.inputTokens > 0 || this.outputTokens > 0) {
      this.agentSpan.setAttributes({
        [sc.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: this.inputTokens,
        [sc.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: this.outputTokens,
      });
    }
    this.agentSpan.end(this.now());
  }

  private startChat(event: TurnEventOf<'iteration'>): void {
    this.endChat();
    const { options } = this;
    const model = event.model ?? options.model;
    // fields set one by one, not spread (bench/RESULTS.md, "Choices in src/ made for speed")
    const attributes: Attributes = { [sc.ATTR_GEN_AI_OPERATION_NAME]: sc.GEN_AI_OPERATION_CHAT, [sc.ATTR_GEN_AI_REQUEST_MODEL]: model };
    this.addShared(attributes);
    if (options.temperature !== undefined) attributes[sc.ATTR_GEN_AI_REQUEST_TEMPERATURE] = options.temperature;
    if (options.server !== undefined) attributes[sc.ATTR_SERVER_ADDRESS] = options.server.address;
    if (options.server?.port !== undefined) attributes[sc.ATTR_SERVER_PORT] = options.server.port;
    attributes[sc.ATTR_RTL_ITERATION] = event.iteration;
    this.chat = this.tracer.startSpan(`${sc.GEN_AI_OPERATION_CHAT} ${model}`, { kind: SpanKind.CLIENT, startTime: this.now(), attributes }, this.agentContext);
  }

  private endChat(): void {
    this.chat?.end(this.now());
    this.chat = undefined;
  }

  /** Adds the attributes on both `invoke_agent` and `chat`: the provider and the conversation. */
  private addShared(attributes: Attributes): void {
    const { options } = this;
    if (options.provider !== undefined) attributes[sc.ATTR_GEN_AI_PROVIDER_NAME] = options.provider;
    if (options.conversationId !== undefined) attributes[sc.ATTR_GEN_AI_CONVERSATION_ID] = options.conversationId;
  }

  private now(): TimeInput | undefined {
    return this.options.clock?.now();
  }
}
