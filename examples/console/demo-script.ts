import type { ChatMessage, ProviderEvent, ProviderRequest } from '../../src/index.js';
import type { ScriptedResponse } from '../../src/testing/index.js';

/** The receipt suffix of a model-visible result. */
const RECEIPT = /\n\n\[receipt: [^\]]*\]$/;

/** The tool messages and assistant tool calls since the last user message of a request. */
function sinceLastUser(messages: readonly ChatMessage[]): { results: string[]; called: Set<string> } {
  let start = 0;
  messages.forEach((m, i) => {
    if (m.role === 'user') start = i + 1;
  });
  const rest = messages.slice(start);
  const results = rest.filter((m) => m.role === 'tool').map((m) => m.content.replace(RECEIPT, ''));
  const called = new Set(rest.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.function.name) : [])));
  return { results, called };
}

/**
 * The console's scripted model: it works out two facts with read-only tools (auto-approved),
 * then asks to save them with `file_write` — which needs an operator's approval, so the turn
 * waits for the page — and answers according to what the operator decided. It reads its
 * request the way a real model would, so every turn of a session runs the same way.
 *
 * @example
 * ```ts
 * const model = scriptedModel(consoleScript);
 * ```
 */
export function consoleScript(request: ProviderRequest): ScriptedResponse {
  const { results, called } = sinceLastUser(request.messages);
  if (!called.has('calculator')) {
    return {
      text: 'Let me work both out first.',
      toolCalls: [
        { id: 'call_calc', name: 'calculator', arguments: { expression: '2340 * 0.175' } },
        { id: 'call_time', name: 'clock', arguments: { timeZone: 'Asia/Tokyo' } },
      ],
    };
  }
  if (!called.has('file_write')) {
    const [product, time] = results;
    return {
      text: 'Now saving them to notes.md — that needs your approval.',
      toolCalls: [
        {
          id: 'call_write',
          name: 'file_write',
          arguments: { path: 'notes.md', content: `17.5% of 2,340 is ${product}.\nTokyo: ${time}\n` },
        },
      ],
    };
  }
  const written = results[results.length - 1] ?? '';
  const answer = written.startsWith('Wrote ')
    ? `17.5% of 2,340 is ${results[0]}; both facts are saved in notes.md.`
    : /^(Denied|Not executed|Error)/.test(written)
      ? `17.5% of 2,340 is ${results[0]}. I did not save notes.md: ${written}`
      : `17.5% of 2,340 is ${results[0]}. Instead of saving, the operator answered: ${written}`;
  return streamWords(answer);
}

/** A final answer streamed a few words at a time, as a real model's deltas arrive. */
function streamWords(text: string): ProviderEvent[] {
  const words = text.match(/\S+\s*/g) ?? [];
  return [...words.map((w): ProviderEvent => ({ type: 'text-delta', text: w })), { type: 'finish', reason: 'stop' }];
}
