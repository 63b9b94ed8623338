/**
 * Chat history in the OpenAI Chat Completions message shape, so a history can be sent to any
 * OpenAI-compatible server as it is.
 */
export interface ToolCallMessagePart {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/**
 * A piece of an assistant turn that a provider needs back with it: Anthropic's thinking blocks
 * with their signatures, OpenAI Responses' reasoning items. Only the provider family named in
 * `provider` reads it; every other provider leaves it out of its requests.
 */
export interface ReasoningPart {
  /** The provider family that made it: `'anthropic'`, `'openai-responses'`, `'ai-sdk'`, … */
  readonly provider: string;
  /** The vendor's own item, as JSON, exactly as it must be sent back. */
  readonly data: Readonly<Record<string, unknown>>;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: readonly ToolCallMessagePart[];
      /** What the provider streamed besides text and calls, in order; present only when there is some. */
      readonly reasoning?: readonly ReasoningPart[];
    }
  | {
      readonly role: 'tool';
      readonly tool_call_id: string;
      readonly content: string;
      /** Present (true) only when the slot failed: Anthropic sends it as `is_error`. */
      readonly isError?: true;
    };
