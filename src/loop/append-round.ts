import type { ParsedCall, SlotResult } from '../core/calls.js';
import { escapeResultAttr, escapeResultContent } from '../provider/text-protocol/escape-tool-result.js';
import type { ChatMessage, ReasoningPart, ToolCallMessagePart } from '../core/messages.js';

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
  round: { text: string; calls: readonly ParsedCall[]; results: readonly SlotResult[]; textMode: boolean; reasoning?: readonly ReasoningPart[] | undefined },
): void {
  const { text, calls, results, reasoning } = round;
  if (round.textMode) {
    history.push(reasoning === undefined ? { role: 'assistant', content: text } : { role: 'assistant', content: text, reasoning });
    let body = '[Tool results]';
    for (let i = 0; i < results.length; i++) {
      body += `\n<tool_result name="${escapeResultAttr(results[i].name)}">\n${escapeResultContent(results[i].content)}\n</tool_result>`;
    }
    history.push({ role: 'user', content: body });
    return;
  }
  const toolCalls = calls.map((call) => new ToolCallPart(call.id, new ToolCallFunction(call.name, call.rawArguments)));
  const content = text.length > 0 ? text : null;
  history.push(reasoning === undefined ? { role: 'assistant', content, tool_calls: toolCalls } : { role: 'assistant', content, tool_calls: toolCalls, reasoning });
  for (let i = 0; i < results.length; i++) {
    const result = results[i];
    history.push(result.success ? new ToolResultMessage(result.id, result.content) : { role: 'tool', tool_call_id: result.id, content: result.content, isError: true });
  }
}

// A round's per-call parts: classes, not literals (bench/RESULTS.md, "Choices in src/ made for speed");
// their own properties come in the literals' order, so JSON and deep equality see no difference.

class ToolCallPart implements ToolCallMessagePart {
  readonly id: string;
  readonly type = 'function' as const;
  readonly function: ToolCallFunction;

  constructor(id: string, fn: ToolCallFunction) {
    this.id = id;
    this.function = fn;
  }
}

class ToolCallFunction {
  readonly name: string;
  readonly arguments: string;

  constructor(name: string, json: string) {
    this.name = name;
    this.arguments = json;
  }
}

class ToolResultMessage {
  readonly role = 'tool' as const;
  readonly tool_call_id: string;
  readonly content: string;

  constructor(toolCallId: string, content: string) {
    this.tool_call_id = toolCallId;
    this.content = content;
  }
}
