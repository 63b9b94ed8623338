import type { ChatMessage } from '../../core/messages.js';
import { escapeJsonTags, escapeResultAttr, escapeResultContent } from './escape-tool-result.js';

/**
 * Rewrites native tool-calling history for a model that only reads text: an assistant message's
 * `tool_calls` become `<tool_call>` blocks in its content, and each run of `role: tool` messages
 * becomes one `[Tool results]` user message with `<tool_result name="…">` blocks (the text-mode
 * history form). Tool content has its protocol tags escaped, opening and closing
 * (`escapeResultContent`), and names are escaped as attributes, so a result cannot forge another
 * block or a call; in call arguments `</` is written `<\/` and an opening tag's `<` `\u003c` (the
 * same JSON). A history without native tool messages is returned as it is (no copy).
 *
 * @example
 * ```ts
 * toTextMessages([{ role: 'tool', tool_call_id: 'c1', content: '5' }]);
 * // [{ role: 'user', content: '[Tool results]\n<tool_result name="c1">\n5\n</tool_result>' }]
 * ```
 */
export function toTextMessages(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  if (!messages.some((m) => m.role === 'tool' || (m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0))) return messages;
  const names = new Map<string, string>();
  const out: ChatMessage[] = [];
  let results: string | undefined;
  const flush = (): void => {
    if (results !== undefined) out.push({ role: 'user', content: results });
    results = undefined;
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      const name = names.get(message.tool_call_id) ?? message.tool_call_id;
      results = `${results ?? '[Tool results]'}\n<tool_result name="${escapeResultAttr(name)}">\n${escapeResultContent(message.content)}\n</tool_result>`;
      continue;
    }
    flush();
    if (message.role === 'assistant' && message.tool_calls && message.tool_calls.length > 0) {
      let content = message.content ?? '';
      for (const call of message.tool_calls) {
        names.set(call.id, call.function.name);
        content += `${content.length > 0 ? '\n' : ''}<tool_call>${escapeJsonTags(JSON.stringify({ name: call.function.name, arguments: decoded(call.function.arguments) }))}</tool_call>`;
      }
      out.push({ role: 'assistant', content });
      continue;
    }
    out.push(message);
  }
  flush();
  return out;
}

function decoded(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
