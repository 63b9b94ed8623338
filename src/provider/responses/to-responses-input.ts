import type { ChatMessage, ReasoningPart } from '../../core/messages.js';
import type { OutputRef } from './output-order.js';

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
 * `instructions`, which a chained response does not inherit). With `stored` (the provider's
 * `store`), an assistant message that carries an output order marker sends its items in the
 * order the response gave them, with their ids (`pushInOrder`).
 *
 * @example
 * ```ts
 * toResponsesInput([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], false);
 * // { instructions: 'Be brief.', input: [{ role: 'user', content: 'hi' }] }
 * ```
 */
export function toResponsesInput(messages: readonly ChatMessage[], chain: boolean, stored = false): ResponsesInput {
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
    else if (at >= start) pushItems(input, message, stored);
  });
  return {
    ...(system.length > 0 ? { instructions: system.join('\n\n') } : {}),
    input,
    ...(previousResponseId !== undefined ? { previousResponseId } : {}),
  };
}

function pushItems(input: unknown[], message: Exclude<ChatMessage, { role: 'system' }>, stored: boolean): void {
  switch (message.role) {
    case 'user':
      input.push({ role: 'user', content: message.content });
      return;
    case 'tool':
      input.push({ type: 'function_call_output', call_id: message.tool_call_id, output: message.content });
      return;
    case 'assistant': {
      const order = stored ? outputOrderOf(message.reasoning) : undefined;
      if (order !== undefined) return pushInOrder(input, message, order);
      for (const part of message.reasoning ?? []) if (isItem(part)) input.push(part.data);
      if (typeof message.content === 'string' && message.content.length > 0) input.push({ role: 'assistant', content: message.content });
      for (const call of message.tool_calls ?? []) {
        input.push({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments });
      }
    }
  }
}

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/**
 * A stored response's items in the order they came, each with the id the API gave it (`OutputRef`):
 * the API pairs a reasoning item with the next item by id. What the order does not name (a call
 * the loop renamed, text of a second message) follows, without ids.
 */
function pushInOrder(input: unknown[], message: AssistantMessage, order: readonly OutputRef[]): void {
  const items = new Map<unknown, Readonly<Record<string, unknown>>>();
  for (const part of message.reasoning ?? []) if (isItem(part)) items.set(part.data.id, part.data);
  const calls = message.tool_calls ?? [];
  const text = typeof message.content === 'string' && message.content.length > 0 ? message.content : undefined;
  const sent = new Set<unknown>();
  let textSent = text === undefined;
  for (const ref of order) {
    if (ref.type === 'reasoning') {
      const item = items.get(ref.id);
      if (item !== undefined && !sent.has(item)) (input.push(item), sent.add(item));
    } else if (ref.type === 'message') {
      if (textSent) continue;
      input.push({ type: 'message', role: 'assistant', id: ref.id, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
      textSent = true;
    } else {
      const call = calls.find((c) => c.id === ref.call_id);
      if (call === undefined || sent.has(call)) continue;
      input.push({ type: 'function_call', id: ref.id, call_id: call.id, name: call.function.name, arguments: call.function.arguments });
      sent.add(call);
    }
  }
  for (const item of items.values()) if (!sent.has(item)) input.push(item);
  if (!textSent) input.push({ role: 'assistant', content: text });
  for (const call of calls) {
    if (!sent.has(call)) input.push({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments });
  }
}

/** The output order marker of an assistant message's parts, when it has one. */
function outputOrderOf(parts: readonly ReasoningPart[] | undefined): readonly OutputRef[] | undefined {
  for (const part of parts ?? []) {
    if (part.provider === RESPONSES_FAMILY && part.data.type === 'output_order' && Array.isArray(part.data.items)) return part.data.items as OutputRef[];
  }
  return undefined;
}

/** A reasoning item of this provider's family (not a response id marker, not another vendor's part). */
const isItem = (part: ReasoningPart): boolean => part.provider === RESPONSES_FAMILY && part.data.type !== 'response_id' && part.data.type !== 'output_order';

function responseIdOf(message: ChatMessage): string | undefined {
  if (message.role !== 'assistant') return undefined;
  for (const part of message.reasoning ?? []) {
    if (part.provider === RESPONSES_FAMILY && part.data.type === 'response_id' && typeof part.data.id === 'string') return part.data.id;
  }
  return undefined;
}
