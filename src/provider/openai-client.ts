import type { ToolCallDelta } from './tool-call-assembler.js';

/**
 * The part of an `openai` client (v6 or v7) that `openAIChatProvider` uses, typed structurally:
 * pass a configured `new OpenAI(…)`. The library's types never import `openai`, so an app that
 * does not install that optional peer still type-checks against `rx-tool-loop`.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * const client: OpenAIChatClient = new OpenAI({ baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' });
 * const provider = openAIChatProvider(client);
 * ```
 */
export interface OpenAIChatClient {
  /** The server's base URL (the `openai` client has one): `server.address` / `server.port` in spans. */
  readonly baseURL?: string;
  /** How often a failed request is retried (the `openai` client's, default 2). */
  readonly maxRetries?: number;
  readonly chat: {
    readonly completions: {
      create(body: OpenAIChatStreamingBody, options?: OpenAIRequestOptions): PromiseLike<AsyncIterable<OpenAIChatChunk>>;
      create(body: OpenAIChatNonStreamingBody, options?: OpenAIRequestOptions): PromiseLike<OpenAIChatCompletion>;
    };
  };
}

/**
 * Request options the client takes: `signal` aborts the HTTP request; `maxRetries: 0` makes it
 * one attempt (the provider retries itself, to report the first failure).
 */
export interface OpenAIRequestOptions {
  signal?: AbortSignal;
  maxRetries?: number;
}

/** The request body the provider sends (plus any `params` it was given). */
export interface OpenAIChatBody {
  model: string;
  messages: readonly unknown[];
  tools?: readonly unknown[];
  temperature?: number | null;
}

export interface OpenAIChatStreamingBody extends OpenAIChatBody {
  stream: true;
  stream_options?: { include_usage?: boolean } | null;
}

export interface OpenAIChatNonStreamingBody extends OpenAIChatBody {
  stream?: false | null;
}

/** Token counts as the server reports them. */
export interface OpenAIUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
}

/** One streamed chunk: the fields the provider reads. */
export interface OpenAIChatChunk {
  readonly id?: string;
  readonly model?: string;
  readonly choices?: readonly {
    readonly delta?: {
      readonly content?: string | null;
      readonly refusal?: string | null;
      readonly tool_calls?: readonly ToolCallDelta[] | null;
    } | null;
    readonly finish_reason?: string | null;
  }[];
  readonly usage?: OpenAIUsage | null;
}

/** A whole (non-streaming) response: the fields the provider reads. */
export interface OpenAIChatCompletion {
  readonly id?: string;
  readonly model?: string;
  readonly choices?: readonly {
    readonly message?: {
      readonly content?: string | null;
      readonly refusal?: string | null;
      readonly tool_calls?: readonly {
        readonly type?: string;
        readonly id: string;
        readonly function?: { readonly name: string; readonly arguments?: string | null };
      }[] | null;
    } | null;
    readonly finish_reason?: string | null;
  }[];
  readonly usage?: OpenAIUsage | null;
}
