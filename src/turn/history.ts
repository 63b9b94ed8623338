import type { ParsedCall, SlotResult } from './calls.js';
import type { ChatMessage } from './messages.js';

/**
 * Appends one round to history: the assistant message with its tool calls, then the results in
 * slot order. Native mode: one `role: tool` message per slot with `tool_call_id`. Text mode:
 * the assistant's text as written, then one user message `[Tool results]` with a
 * `<tool_result name="...">` block per slot. `results` is indexed by slot.
 *
 * @example
 * ```ts
 * appendRound(turn.history, { text, calls, results, textMode: false });
 * ```
 */
export function appendRound(
  history: ChatMessage[],
  round: { text: string; calls: readonly ParsedCall[]; results: readonly SlotResult[]; textMode: boolean },
): void {
  const { text, calls, results } = round;
  if (round.textMode) {
    history.push({ role: 'assistant', content: text });
    let body = '[Tool results]';
    for (let i = 0; i < results.length; i++) {
      body += `\n<tool_result name="${escapeAttr(results[i].name)}">\n${escapeClosingTag(results[i].content)}\n</tool_result>`;
    }
    history.push({ role: 'user', content: body });
    return;
  }
  history.push({
    role: 'assistant',
    content: text.length > 0 ? text : null,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function' as const,
      function: { name: call.name, arguments: call.rawArguments },
    })),
  });
  for (let i = 0; i < results.length; i++) {
    history.push({ role: 'tool', tool_call_id: results[i].id, content: results[i].content });
  }
}

/** Output that contains the closing tag must not end its block early. */
const CLOSING_TAG = /<\/tool_result/gi;
const escapeClosingTag = (content: string): string =>
  content.includes('</') ? content.replace(CLOSING_TAG, '<\\/tool_result') : content;

const escapeAttr = (value: string): string => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
