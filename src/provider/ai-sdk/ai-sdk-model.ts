/**
 * The part of an AI SDK `LanguageModel` (specification v2, v3 or v4, from `@ai-sdk/provider`) that
 * `aiSdkProvider` uses, typed structurally: pass any `@ai-sdk/*` provider's model as it is
 * (`openai('gpt-4o')`, `anthropic('claude-…')`, `createOpenAICompatible(…).chatModel(…)`). The
 * library's types never import `@ai-sdk/provider`, so an app without that optional peer still
 * type-checks against `rx-tool-loop`.
 *
 * @example
 * ```ts
 * import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
 * const model: AiSdkLanguageModel = createOpenAICompatible({ name: 'ollama', baseURL: 'http://localhost:11434/v1' }).chatModel('qwen3:8b');
 * ```
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v2' | 'v3' | 'v4';
  /** The provider's id, e.g. `'openai.chat'`, `'anthropic.messages'`. */
  readonly provider: string;
  readonly modelId: string;
  doStream(options: AiSdkCallOptions): PromiseLike<{ readonly stream: ReadableStream<AiSdkStreamPart> }>;
}

/** A JSON value, as the spec's `JSONValue`. */
export type AiSdkJsonValue = null | string | number | boolean | { [key: string]: AiSdkJsonValue } | AiSdkJsonValue[];

/** Provider-specific options, keyed by the provider's name (`{ openai: { user: 'u1' } }`). */
export type AiSdkSharedOptions = Record<string, { [key: string]: AiSdkJsonValue }>;

/** Call options `aiSdkProvider` may pass beside the prompt and tools (the spec's names). */
export interface AiSdkExtraCallOptions {
  readonly maxOutputTokens?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
  readonly stopSequences?: string[];
  readonly seed?: number;
  /** Extra HTTP headers for every request. */
  readonly headers?: Record<string, string | undefined>;
}

/** What `aiSdkProvider` passes to `doStream`. */
export interface AiSdkCallOptions extends AiSdkExtraCallOptions {
  prompt: AiSdkMessage[];
  tools?: AiSdkFunctionTool[];
  temperature?: number;
  abortSignal?: AbortSignal;
  providerOptions?: AiSdkSharedOptions;
  /** Structured output (`ProviderRequest.output`): the spec's JSON response format. */
  responseFormat?: { readonly type: 'json'; readonly schema?: object; readonly name?: string };
}

/** A tool as the spec's `LanguageModelV2FunctionTool` / `V3FunctionTool`. */
export interface AiSdkFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: object;
}

export interface AiSdkTextPart {
  readonly type: 'text';
  readonly text: string;
}

export interface AiSdkReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
  readonly providerOptions?: AiSdkSharedOptions;
}

export interface AiSdkToolCallPart {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments as a JSON value (the spec wants the parsed object, not its text). */
  readonly input: unknown;
  /** The call's provider metadata from the response (Gemini's thought signature). */
  readonly providerOptions?: AiSdkSharedOptions;
}

export interface AiSdkToolResultPart {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly output: { readonly type: 'text' | 'error-text'; readonly value: string };
}

/** One message of the spec's prompt (the parts `aiSdkProvider` sends). */
export type AiSdkMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: AiSdkTextPart[] }
  | { readonly role: 'assistant'; readonly content: (AiSdkTextPart | AiSdkReasoningPart | AiSdkToolCallPart)[] }
  | { readonly role: 'tool'; readonly content: AiSdkToolResultPart[] };

/** One part of the model's stream; `aiSdkProvider` reads each field it needs with care. */
export interface AiSdkStreamPart {
  readonly type: string;
}
