import { describe, expect, it } from 'vitest';
import type { ChatMessage, SlotResult } from '../../src/index.js';
import { appendRound } from '../../src/operators.js';
import { parsed } from './helpers.js';

const result = (slot: number, name: string, content: string): SlotResult => ({
  slot, id: `c${slot}`, name, args: {}, outcome: 'executed', success: true, content, output: content, durationMs: 0,
});

describe('appendRound: the assistant tool-call turn, then one result per slot in slot order', () => {
  it('native mode: an assistant message with its tool_calls, then one role tool message per slot', () => {
    const history: ChatMessage[] = [];
    const calls = [parsed(0, 'a', { x: 1 }), parsed(1, 'b')];
    appendRound(history, { text: '', calls, results: [result(0, 'a', 'A'), result(1, 'b', 'B')], textMode: false });
    expect(history).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c0', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
          { id: 'c1', type: 'function', function: { name: 'b', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c0', content: 'A' },
      { role: 'tool', tool_call_id: 'c1', content: 'B' },
    ]);
  });

  it('native mode keeps the text the model wrote next to its calls', () => {
    const history: ChatMessage[] = [];
    appendRound(history, { text: 'Let me look.', calls: [parsed(0, 'a')], results: [result(0, 'a', 'A')], textMode: false });
    expect(history[0]).toMatchObject({ role: 'assistant', content: 'Let me look.' });
  });

  it('text mode: the assistant text as written, then one user message with a tool_result block per slot', () => {
    const history: ChatMessage[] = [];
    const text = '<tool_call>{"name":"a"}</tool_call><tool_call>{"name":"b"}</tool_call>';
    appendRound(history, { text, calls: [parsed(0, 'a'), parsed(1, 'b')], results: [result(0, 'a', 'A'), result(1, 'b', 'B')], textMode: true });
    expect(history).toEqual([
      { role: 'assistant', content: text },
      { role: 'user', content: '[Tool results]\n<tool_result name="a">\nA\n</tool_result>\n<tool_result name="b">\nB\n</tool_result>' },
    ]);
  });

  it('text mode escapes a tool name that would break the block', () => {
    const history: ChatMessage[] = [];
    appendRound(history, { text: 't', calls: [parsed(0, 'a"b')], results: [result(0, 'a"b', 'A')], textMode: true });
    expect((history[1] as { content: string }).content).toContain('<tool_result name="a&#34;b">');
  });
});
