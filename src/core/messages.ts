/**
 * Chat history in the OpenAI Chat Completions message shape, so a history can be sent to any
 * OpenAI-compatible server as it is.
 */
export interface ToolCallMessagePart {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: readonly ToolCallMessagePart[];
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };
