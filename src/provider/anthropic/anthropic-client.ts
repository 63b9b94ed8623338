/**
 * The part of an `@anthropic-ai/sdk` client that `anthropicProvider` uses, typed structurally:
 * pass a configured `new Anthropic(…)`. The library's types never import the SDK, so an app that
 * does not install that optional peer still type-checks against `rx-tool-loop`.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * const client: AnthropicClient = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY });
 * const provider = anthropicProvider(client);
 * ```
 */
export interface AnthropicClient {
  /** The server's base URL (the SDK client has one): `server.address` / `server.port` in spans. */
  readonly baseURL?: string;
  /** How often a failed request is retried (the SDK client's, default 2). */
  readonly maxRetries?: number;
  readonly messages: {
    create(body: AnthropicStreamingBody, options?: AnthropicRequestOptions): PromiseLike<AsyncIterable<AnthropicStreamEvent>>;
  };
}

/**
 * Request options the client takes: `signal` aborts the HTTP request; `maxRetries: 0` makes it
 * one attempt (the provider retries itself, to report the first failure).
 */
export interface AnthropicRequestOptions {
  signal?: AbortSignal;
  maxRetries?: number;
}

/**
 * The Messages API request body the provider sends (plus any `params` it was given): its
 * `messages` are `AnthropicMessage`s and its `tools` `AnthropicToolSpec`s, typed loosely here so
 * that the SDK's own body type fits.
 */
export interface AnthropicStreamingBody {
  model: string;
  max_tokens: number;
  messages: readonly unknown[];
  system?: unknown;
  tools?: readonly unknown[];
  temperature?: number;
  stream: true;
}

/** One message of the Messages API: roles alternate, content is text or blocks. */
export interface AnthropicMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly AnthropicContentBlock[];
}

/** A content block the provider sends: text, a tool call, a tool result, or a reasoning block sent back as it came. */
export type AnthropicContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: unknown }
  | { readonly type: 'tool_result'; readonly tool_use_id: string; readonly content: string; readonly is_error?: true }
  | Readonly<Record<string, unknown>>;

/** A tool as the Messages API takes it. */
export interface AnthropicToolSpec {
  readonly name: string;
  readonly description: string;
  readonly input_schema: unknown;
}

/** Token counts as the server reports them (cumulative in `message_delta`). */
export interface AnthropicUsage {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
}

/** One streamed event (`message_start`, `content_block_delta`, …): the fields the provider reads. */
export interface AnthropicStreamEvent {
  readonly type: string;
  readonly index?: number;
  readonly message?: { readonly id?: string; readonly model?: string; readonly usage?: AnthropicUsage | null };
  readonly content_block?: {
    readonly type: string;
    readonly id?: string;
    readonly name?: string;
    readonly input?: unknown;
    readonly text?: string;
    readonly thinking?: string;
    readonly signature?: string;
    readonly data?: string;
  };
  readonly delta?: {
    readonly type?: string;
    readonly text?: string;
    readonly partial_json?: string;
    readonly thinking?: string;
    readonly signature?: string;
    readonly stop_reason?: string | null;
  };
  readonly usage?: AnthropicUsage | null;
}
