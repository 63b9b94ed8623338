import type { ChatMessage } from '../../src/index.js';
import { parseTextToolCalls } from '../../src/index.js';

/** Options of `historyProblems`. */
export interface HistoryCheckOptions {
  /**
   * Tool names a text-protocol model could call. Given, an assistant message without structured
   * calls whose text holds protocol calls must be followed by a `[Tool results]` message with one
   * block per call. Leave it out for native-only histories.
   */
  readonly textTools?: readonly string[];
}

const TOOL_RESULTS = '[Tool results]';
const RESULT_BLOCK = /\n<tool_result name="[^"]*">\n/g;

/**
 * Everything that would make a provider reject (or misread) this history as the next request's
 * messages; an empty list means valid. Native rounds: every assistant tool call id is unique
 * in its message, and the message is followed by exactly one `role: tool` message per call, with
 * that id, in call order, before any other message; no `tool` message stands anywhere else.
 * Text rounds: an assistant message holding N protocol calls is followed by one user
 * `[Tool results]` message with N `<tool_result>` blocks; no results message stands anywhere
 * else. Every message is a known role with string content (null only for an assistant message
 * with tool calls) and survives a JSON round trip, as it must on the wire.
 *
 * @example
 * ```ts
 * expect(historyProblems(done.history)).toEqual([]);
 * ```
 */
export function historyProblems(messages: readonly ChatMessage[], options: HistoryCheckOptions = {}): string[] {
  const problems: string[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i] as ChatMessage & { tool_calls?: readonly { id: string }[] };
    const where = `message ${i} (${String(m?.role)})`;
    problems.push(...shapeProblems(m, where));
    if (m.role === 'tool') {
      problems.push(`${where}: a tool result with no assistant tool call before it (id ${m.tool_call_id})`);
      i++;
      continue;
    }
    if (m.role === 'assistant' && m.tool_calls !== undefined && m.tool_calls.length > 0) {
      i = nativeRound(messages, i, problems);
      continue;
    }
    if (m.role === 'user' && typeof m.content === 'string' && m.content.startsWith(TOOL_RESULTS)) {
      problems.push(`${where}: tool results with no assistant message that asked for them`);
    }
    if (m.role === 'assistant' && options.textTools && typeof m.content === 'string') {
      const calls = parseTextToolCalls(m.content, options.textTools).length;
      if (calls > 0) {
        const next = messages[i + 1];
        if (next?.role !== 'user' || !next.content.startsWith(TOOL_RESULTS)) {
          problems.push(`${where}: ${calls} text tool call(s) with no [Tool results] message after them`);
          i++;
          continue;
        }
        problems.push(...shapeProblems(next, `message ${i + 1} (user)`));
        const blocks = (next.content.match(RESULT_BLOCK) ?? []).length;
        if (blocks !== calls) problems.push(`message ${i + 1}: ${blocks} tool_result block(s) for ${calls} call(s)`);
        i += 2;
        continue;
      }
    }
    i++;
  }
  return problems;
}

function nativeRound(messages: readonly ChatMessage[], at: number, problems: string[]): number {
  const assistant = messages[at] as Extract<ChatMessage, { role: 'assistant' }>;
  const ids = (assistant.tool_calls ?? []).map((c) => c.id);
  if (new Set(ids).size !== ids.length) problems.push(`message ${at}: duplicate tool call ids ${JSON.stringify(ids)}`);
  for (const [k, call] of (assistant.tool_calls ?? []).entries()) {
    if (typeof call.id !== 'string' || call.id.length === 0) problems.push(`message ${at}: tool call ${k} has no id`);
    if (call.type !== 'function' || typeof call.function?.name !== 'string' || typeof call.function.arguments !== 'string') {
      problems.push(`message ${at}: tool call ${k} is not a function call with string arguments`);
    }
  }
  let j = at + 1;
  for (const id of ids) {
    const m = messages[j];
    if (m?.role !== 'tool') {
      problems.push(`message ${at}: call ${id} has no result (found ${m === undefined ? 'the end' : m.role} at ${j})`);
      return j;
    }
    problems.push(...shapeProblems(m, `message ${j} (tool)`));
    if (m.tool_call_id !== id) problems.push(`message ${j}: result for ${m.tool_call_id} where ${id} was expected`);
    j++;
  }
  return j;
}

function shapeProblems(m: ChatMessage | undefined, where: string): string[] {
  if (m === null || typeof m !== 'object') return [`${where}: not a message`];
  const out: string[] = [];
  const content = (m as { content?: unknown }).content;
  switch (m.role) {
    case 'system':
    case 'user':
    case 'tool':
      if (typeof content !== 'string') out.push(`${where}: content is ${typeof content}, not a string`);
      break;
    case 'assistant':
      if (typeof content !== 'string' && !(content === null && (m.tool_calls?.length ?? 0) > 0)) {
        out.push(`${where}: assistant content is ${content === null ? 'null without tool calls' : typeof content}`);
      }
      break;
    default:
      return [`${where}: unknown role`];
  }
  let wire: string;
  try {
    wire = JSON.stringify(m);
  } catch (err) {
    return [...out, `${where}: cannot be serialized (${String(err)})`];
  }
  if (JSON.stringify(JSON.parse(wire)) !== wire) out.push(`${where}: does not survive a JSON round trip`);
  return out;
}
