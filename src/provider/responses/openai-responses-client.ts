import type { OpenAIRequestOptions } from '../openai-client.js';

/**
 * The part of an `openai` client (v6 or v7) that `openAIResponsesProvider` uses, typed
 * structurally: pass a configured `new OpenAI(…)`. The library's types never import `openai`, so
 * an app that does not install that optional peer still type-checks against `rx-tool-loop`.
 * Events and responses are typed loosely (`type` and a few fields): the provider reads every
 * other field at run time, as a server may send anything.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * const client: OpenAIResponsesClient = new OpenAI({ apiKey: process.env.OPENAI_API_KEY });
 * const provider = openAIResponsesProvider(client);
 * ```
 */
export interface OpenAIResponsesClient {
  /** The server's base URL (the `openai` client has one): `server.address` / `server.port` in spans. */
  readonly baseURL?: string;
  /** How often a failed request is retried (the `openai` client's, default 2). */
  readonly maxRetries?: number;
  readonly responses: {
    create(body: OpenAIResponsesStreamingBody, options?: OpenAIRequestOptions): PromiseLike<AsyncIterable<OpenAIResponsesStreamEvent>>;
    create(body: OpenAIResponsesNonStreamingBody, options?: OpenAIRequestOptions): PromiseLike<OpenAIResponse>;
  };
}

/** The request body the provider sends to `POST /responses` (plus any `params` it was given). */
export interface OpenAIResponsesBody {
  model?: string | null;
  input?: string | readonly unknown[];
  instructions?: string | null;
  tools?: readonly unknown[];
  temperature?: number | null;
  store?: boolean | null;
  include?: readonly string[] | null;
  previous_response_id?: string | null;
}

export interface OpenAIResponsesStreamingBody extends OpenAIResponsesBody {
  stream: true;
}

export interface OpenAIResponsesNonStreamingBody extends OpenAIResponsesBody {
  stream?: false | null;
}

/** One streamed event (`response.output_text.delta`, `response.completed`, `error`, …). */
export interface OpenAIResponsesStreamEvent {
  readonly type: string;
}

/** A whole response (the non-streaming answer, and the `response` of the closing stream events). */
export interface OpenAIResponse {
  readonly id?: string;
  readonly model?: string | null;
  /** `completed`, `incomplete`, `failed`, … */
  readonly status?: string | null;
  readonly output?: readonly { readonly type: string }[];
  readonly usage?: { readonly input_tokens?: number; readonly output_tokens?: number } | null;
  readonly incomplete_details?: { readonly reason?: string | null } | null;
  readonly error?: { readonly code?: string | null; readonly message?: string | null } | null;
}
