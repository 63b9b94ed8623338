import type { Observable } from 'rxjs';
import type { ToolSpec } from '../core/tool.js';
import type { ChatMessage, ReasoningPart } from '../core/messages.js';
import type { OutputFormat } from '../core/structured-output.js';

/** One provider request. System text travels as role 'system' messages. */
export interface ProviderRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  /**
   * Present (and non-empty) only for native-tool providers when tools are offered. Shared by the
   * agent's requests and often frozen: a provider that adds a tool of its own makes a new list.
   */
  readonly tools?: readonly ToolSpec[];
  readonly temperature?: number;
  /**
   * The final answer must be JSON matching `schema` (the turn's `TurnInput.output`); the loop
   * parses and validates the reply's text, and sends a reply that does not match back with the
   * problems. A provider honours it the way its API does:
   * - OpenAI Chat: `response_format: { type: 'json_schema', json_schema: { name, schema, strict: false } }`;
   * - OpenAI Responses: `text.format: { type: 'json_schema', name, schema, strict: false }`;
   * - Anthropic: a tool named `name` with `input_schema: schema`, forced with
   *   `tool_choice: { type: 'tool', name }` when the request offers no other tool (else
   *   `tool_choice: { type: 'any' }`); its input comes back as the answer: `text-delta` events
   *   with the JSON, not a `tool-call`;
   * - the text protocol: instructions (`outputInstructions`) after the system messages.
   * A provider that cannot honour it may ignore it: the loop still checks the answer.
   */
  readonly output?: OutputFormat;
}

/** A tool call as the provider reports it. `arguments` is the raw JSON text or an object. */
export interface ProviderToolCall {
  readonly id?: string;
  readonly name: string;
  readonly arguments: string | Record<string, unknown>;
}

/** What a provider request streams back. */
export type ProviderEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | ({ readonly type: 'tool-call' } & ProviderToolCall)
  /**
   * A fragment of a call's arguments as it streams, before the complete `tool-call` (which a
   * native provider still sends, after all of its deltas). `index` is the call's place in the
   * response; `id` and `name` come when the provider knows them (at least on the first delta).
   */
  | {
      readonly type: 'tool-call-delta';
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly argumentsDelta: string;
    }
  /** A part the provider needs back with this assistant turn (thinking with its signature, a reasoning item). */
  | { readonly type: 'reasoning'; readonly part: ReasoningPart }
  | { readonly type: 'usage'; readonly inputTokens: number; readonly outputTokens: number }
  | {
      readonly type: 'finish';
      readonly reason?: string;
      /** The response's id as the server reports it (OpenAI: the completion's `id`). Telemetry: `gen_ai.response.id`. */
      readonly responseId?: string;
      /** The model that actually answered (OpenAI: the completion's `model`). Telemetry: `gen_ai.response.model`. */
      readonly responseModel?: string;
    };

/** Where a provider sends its requests. */
export interface ProviderServer {
  readonly address: string;
  readonly port?: number;
}

/** A call found in model text by a text tool protocol. */
export interface ParsedToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** How a text-protocol provider explains and parses tool calls written in plain text. */
export interface TextToolProtocol {
  /** Strict parsing: no protocol section in the prompt, no calls parsed from text. */
  readonly strict: boolean;
  /** The system-prompt section that explains the protocol and lists the tools. */
  instructions(specs: readonly ToolSpec[]): string;
  /** Calls found in a complete response; `malformed` when it looks like the protocol but cannot be parsed. */
  parse(text: string, knownTools: readonly string[]): { calls: ParsedToolCall[]; malformed: boolean };
}

/**
 * A model behind the loop. `request` is cold: subscribing sends the request, unsubscribing (or
 * the signal) cancels it.
 */
export interface ModelProvider {
  /** The provider's name in errors and logs. */
  readonly name: string;
  /**
   * `gen_ai.provider.name` in spans, one of the GenAI conventions' values where one fits
   * (`openai`, `anthropic`, `aws.bedrock`, …). Default: `name`.
   */
  readonly telemetryName?: string;
  /** The server requests go to, when known (`server.address`, `server.port` in spans). */
  readonly server?: ProviderServer;
  /** True when the provider takes structured tool specs and returns structured calls. */
  readonly nativeTools: boolean;
  /** Present on text-protocol providers. */
  readonly textProtocol?: TextToolProtocol;
  /**
   * True when `request` never reads its `signal`: its Observable stops all its work when it is
   * unsubscribed, which the loop does on every cancel, deadline and teardown. The loop then
   * makes no `AbortController` per request, which saves time and memory
   * (bench/RESULTS.md, "Choices in src/ made for speed"), and passes one shared signal that
   * never aborts. Default: false.
   */
  readonly ignoresSignal?: boolean;
  request(req: ProviderRequest, signal: AbortSignal): Observable<ProviderEvent>;
}
