import type { ChatMessage } from '../../core/messages.js';
import { argumentsObject } from '../arguments-object.js';
import type { AnthropicContentBlock, AnthropicMessage } from './anthropic-client.js';

/** A history in the Messages API's shape: the system text apart, then alternating messages. */
export interface AnthropicHistory {
  /** The system messages' text, joined by a blank line; absent when there is none. */
  readonly system?: string;
  readonly messages: AnthropicMessage[];
}

/**
 * Converts a history in OpenAI Chat shape into the Messages API's. System messages go to
 * `system`. An assistant message becomes content blocks: its reasoning parts of provider
 * `'anthropic'` first (thinking blocks with their signatures, sent back as they came), then its
 * text, then a `tool_use` per call — or, after interleaved thinking, every block where the
 * response had it (the `block_order` part) (`input`: the parsed arguments; `{}` when they are not a
 * JSON object). Tool messages become `tool_result` blocks of a user message (`is_error: true`
 * for a failed slot). Adjacent messages of one role are merged into one, since the API wants
 * roles to alternate; a message with no content at all is left out. A message of one text block
 * is sent as a plain string.
 *
 * @example
 * ```ts
 * toAnthropicMessages([
 *   { role: 'system', content: 'Be brief.' },
 *   { role: 'user', content: 'Weather in Oslo?' },
 *   { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] },
 *   { role: 'tool', tool_call_id: 't1', content: 'sunny' },
 * ]);
 * // { system: 'Be brief.', messages: [
 * //   { role: 'user', content: 'Weather in Oslo?' },
 * //   { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } }] },
 * //   { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'sunny' }] } ] }
 * ```
 */
export function toAnthropicMessages(history: readonly ChatMessage[]): AnthropicHistory {
  const system: string[] = [];
  const turns: { role: 'user' | 'assistant'; blocks: AnthropicContentBlock[] }[] = [];
  const add = (role: 'user' | 'assistant', blocks: AnthropicContentBlock[]): void => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  };
  for (const message of history) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        add('user', [{ type: 'text', text: message.content }]);
        break;
      case 'assistant':
        add('assistant', assistantBlocks(message));
        break;
      case 'tool':
        add('user', [
          message.isError === true
            ? { type: 'tool_result', tool_use_id: message.tool_call_id, content: message.content, is_error: true }
            : { type: 'tool_result', tool_use_id: message.tool_call_id, content: message.content },
        ]);
        break;
    }
  }
  const messages = turns.map(({ role, blocks }): AnthropicMessage => {
    const only = blocks.length === 1 ? blocks[0] : undefined;
    return { role, content: only?.type === 'text' && typeof only.text === 'string' ? only.text : blocks };
  });
  return system.length > 0 ? { system: system.join('\n\n'), messages } : { messages };
}

function assistantBlocks(message: Extract<ChatMessage, { role: 'assistant' }>): AnthropicContentBlock[] {
  const thinking: AnthropicContentBlock[] = [];
  let order: readonly unknown[] | undefined;
  for (const part of message.reasoning ?? []) {
    if (part.provider !== 'anthropic') continue;
    if (part.data.type === 'block_order' && Array.isArray(part.data.blocks)) order = part.data.blocks;
    else thinking.push(part.data);
  }
  const text: AnthropicContentBlock[] = message.content !== null && message.content.length > 0 ? [{ type: 'text', text: message.content }] : [];
  const calls = (message.tool_calls ?? []).map((call): AnthropicContentBlock => ({ type: 'tool_use', id: call.id, name: call.function.name, input: argumentsObject(call.function.arguments) }));
  if (order === undefined) return [...thinking, ...text, ...calls];
  // interleaved thinking: each block where the response had it; what the order does not place follows
  const blocks: AnthropicContentBlock[] = [];
  for (const kind of order) {
    const next = kind === 'reasoning' ? thinking.shift() : kind === 'text' ? text.shift() : takeCall(calls, kind);
    if (next !== undefined) blocks.push(next);
  }
  return [...blocks, ...thinking, ...text, ...calls];
}

/** Removes and returns the `tool_use` block an order entry `tool_use:<id>` names. */
function takeCall(calls: AnthropicContentBlock[], kind: unknown): AnthropicContentBlock | undefined {
  const at = typeof kind === 'string' && kind.startsWith('tool_use:') ? calls.findIndex((call) => 'id' in call && call.id === kind.slice('tool_use:'.length)) : -1;
  return at < 0 ? undefined : calls.splice(at, 1)[0];
}
