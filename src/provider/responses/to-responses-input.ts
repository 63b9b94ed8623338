import type { ChatMessage, ReasoningPart } from '../../core/messages.js';

/** The `provider` of the reasoning parts `openAIResponsesProvider` writes and reads back. */
export const RESPONSES_FAMILY = 'openai-responses';

/** What a history becomes in a Responses request. */
export interface ResponsesInput {
  /** The system messages, joined by a blank line; absent without any. */
  readonly instructions?: string;
  /** The `input` items. */
  readonly input: unknown[];
  /** With chaining on: the id of the last response the history holds, whose items are not sent again. */
  readonly previousResponseId?: string;
}

/**
 * Converts a history (OpenAI Chat shape) into the Responses API's `instructions` and `input`
 * items: system messages join into `instructions`; a user message is `{ role: 'user', content }`;
 * an assistant message is its reasoning items (this provider's parts, as they came), its text as
 * `{ role: 'assistant', content }`, then a `function_call` item per tool call; a tool message is a
 * `function_call_output`. With `chain`, the last assistant message that carries a response id
 * marker (`{ type: 'response_id', id }`) ends what the server already holds: its id becomes
 * `previousResponseId` and only later messages are sent (system messages still all go to
 * `instructions`, which a chained response does not inherit).
 *
 * @example
 * ```ts
 * toResponsesInput([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], false);
 * // { instructions: 'Be brief.', input: [{ role: 'user', content: 'hi' }] }
 * ```
 */
export function toResponsesInput(messages: readonly ChatMessage[], chain: boolean): ResponsesInput {
  let start = 0;
  let previousResponseId: string | undefined;
  for (let at = messages.length - 1; chain && at >= 0; at--) {
    const id = responseIdOf(messages[at]);
    if (id === undefined) continue;
    previousResponseId = id;
    start = at + 1;
    break;
  }
  const system: string[] = [];
  const input: unknown[] = [];
  messages.forEach((message, at) => {
    if (message.role === 'system') system.push(message.content);
    else if (at >= start) pushItems(input, message);
  });
  return {
    ...(system.length > 0 ? { instructions: system.join('\n\n') } : {}),
    input,
    ...(previousResponseId !== undefined ? { previousResponseId } : {}),
  };
}

function pushItems(input: unknown[], message: Exclude<ChatMessage, { role: 'system' }>): void {
  switch (message.role) {
    case 'user':
      input.push({ role: 'user', content: message.content });
      return;
    case 'tool':
      input.push({ type: 'function_call_output', call_id: message.tool_call_id, output: message.content });
      return;
    case 'assistant':
      for (const part of message.reasoning ?? []) if (isItem(part)) input.push(part.data);
      if (typeof message.content === 'string' && message.content.length > 0) input.push({ role: 'assistant', content: message.content });
      for (const call of message.tool_calls ?? []) {
        input.push({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments });
      }
  }
}

/** A reasoning item of this provider's family (not a response id marker, not another vendor's part). */
const isItem = (part: ReasoningPart): boolean => part.provider === RESPONSES_FAMILY && part.data.type !== 'response_id';

function responseIdOf(message: ChatMessage): string | undefined {
  if (message.role !== 'assistant') return undefined;
  for (const part of message.reasoning ?? []) {
    if (part.provider === RESPONSES_FAMILY && part.data.type === 'response_id' && typeof part.data.id === 'string') return part.data.id;
  }
  return undefined;
}
