import type { ProviderEvent, ProviderToolCall } from '../provider.js';
import type { ResponsesTurn } from './emit-turn-end.js';
import type { OpenAIResponse } from './openai-responses-client.js';
import { outputRef, type OutputRef } from './output-order.js';
import { responseFailedError } from './responses-errors.js';

/** The fields of an output item the reader looks at. */
interface ItemFields {
  readonly type?: unknown;
  readonly content?: unknown;
  readonly call_id?: unknown;
  readonly name?: unknown;
  readonly arguments?: unknown;
}

/**
 * Reads a whole (non-streaming) Responses API response: the text of its `message` items
 * (`output_text` and `refusal` parts) goes out as `text-delta` events through `next`; its
 * `reasoning` items and `function_call` items are returned in output order. A response with
 * `status: 'failed'` throws a `ProviderError`.
 *
 * @example
 * ```ts
 * const turn = readWholeResponse('openai-responses', response, (event) => subscriber.next(event));
 * turn.calls; // [{ id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' }]
 * ```
 */
export function readWholeResponse(provider: string, response: OpenAIResponse, next: (event: ProviderEvent) => void): ResponsesTurn {
  if (response.status === 'failed') throw responseFailedError(provider, response);
  const reasoning: Readonly<Record<string, unknown>>[] = [];
  const calls: ProviderToolCall[] = [];
  const order: OutputRef[] = [];
  for (const item of Array.isArray(response.output) ? (response.output as readonly ItemFields[]) : []) {
    if (item === null || typeof item !== 'object') continue;
    const ref = outputRef(item as { type?: unknown; id?: unknown; call_id?: unknown });
    if (ref !== undefined) order.push(ref);
    if (item.type === 'reasoning') reasoning.push(item as Readonly<Record<string, unknown>>);
    else if (item.type === 'message') {
      for (const text of textsOf(item.content)) next({ type: 'text-delta', text });
    } else if (item.type === 'function_call' && typeof item.name === 'string' && item.name.length > 0) {
      const args = typeof item.arguments === 'string' ? item.arguments : '';
      calls.push(typeof item.call_id === 'string' && item.call_id.length > 0 ? { id: item.call_id, name: item.name, arguments: args } : { name: item.name, arguments: args });
    }
  }
  return { response, reasoning, calls, order };
}

/** The non-empty texts of a message's content parts (`output_text`'s `text`, `refusal`'s `refusal`). */
function textsOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const texts: string[] = [];
  for (const part of content as { type?: unknown; text?: unknown; refusal?: unknown }[]) {
    const text = part?.type === 'output_text' ? part.text : part?.type === 'refusal' ? part.refusal : undefined;
    if (typeof text === 'string' && text.length > 0) texts.push(text);
  }
  return texts;
}
