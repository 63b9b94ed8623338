import { describe, expect, it } from 'vitest';
import type { ChatMessage, TurnEvent } from '../../src/index.js';
import { historyProblems } from './history-validator.js';
import { slotProblems } from './slot-invariants.js';

/** The validators the suite relies on must themselves catch what they claim to catch. */

const call = (id: string, name = 't') => ({ id, type: 'function' as const, function: { name, arguments: '{}' } });
const asks = (...ids: string[]): ChatMessage => ({ role: 'assistant', content: null, tool_calls: ids.map((id) => call(id)) });
const result = (id: string, content = 'ok'): ChatMessage => ({ role: 'tool', tool_call_id: id, content });
const user = (content: string): ChatMessage => ({ role: 'user', content });

describe('historyProblems accepts what a provider accepts', () => {
  it('a native round with its results in call order, and a text round with one block per call', () => {
    expect(historyProblems([user('go'), asks('a', 'b'), result('a'), result('b'), { role: 'assistant', content: 'done' }])).toEqual([]);
    const text: ChatMessage[] = [
      user('go'),
      { role: 'assistant', content: 'ok <tool_call>{"name":"t","arguments":{}}</tool_call>' },
      user('[Tool results]\n<tool_result name="t">\nfine\n</tool_result>'),
    ];
    expect(historyProblems(text, { textTools: ['t'] })).toEqual([]);
  });
});

describe('historyProblems rejects every broken round', () => {
  it.each([
    ['a missing result', [user('go'), asks('a', 'b'), result('a'), user('next')]],
    ['results out of order', [user('go'), asks('a', 'b'), result('b'), result('a')]],
    ['a duplicated result', [user('go'), asks('a'), result('a'), result('a')]],
    ['an orphan result', [user('go'), result('x')]],
    ['duplicate call ids', [user('go'), asks('a', 'a'), result('a'), result('a')]],
    ['a result after the user spoke again', [user('go'), asks('a'), user('hey'), result('a')]],
    ['null content without calls', [user('go'), { role: 'assistant', content: null } as ChatMessage]],
    ['non-string tool content', [user('go'), asks('a'), { role: 'tool', tool_call_id: 'a', content: 5 } as unknown as ChatMessage]],
  ] as [string, ChatMessage[]][])('%s', (_name, messages) => {
    expect(historyProblems(messages)).not.toEqual([]);
  });

  it('a text round whose results message has fewer blocks than calls, or is missing', () => {
    const asked: ChatMessage = { role: 'assistant', content: '<tool_call>{"name":"t"}</tool_call><tool_call>{"name":"t","arguments":{"x":1}}</tool_call>' };
    expect(historyProblems([user('go'), asked, user('[Tool results]\n<tool_result name="t">\nx\n</tool_result>')], { textTools: ['t'] })).not.toEqual([]);
    expect(historyProblems([user('go'), asked, user('next')], { textTools: ['t'] })).not.toEqual([]);
  });
});

describe('slotProblems enforces invariant 1', () => {
  const c = (slot: number, id = `c${slot}`): TurnEvent => ({ type: 'tool-call', iteration: 1, slot, id, name: 't', args: {}, executes: true });
  const r = (slot: number, id = `c${slot}`): TurnEvent => ({
    type: 'tool-result', iteration: 1, slot, id, name: 't', output: '', success: true, outcome: 'executed', durationMs: 0,
  });
  it('accepts one call then one result per slot, in any completion order', () => {
    expect(slotProblems([c(0), c(1), r(1), r(0)])).toEqual([]);
  });
  it.each([
    ['a result without a call', [r(0)]],
    ['two results', [c(0), r(0), r(0)]],
    ['two calls', [c(0), c(0), r(0)]],
    ['a result before its call', [r(0), c(0)]],
    ['a result with another id', [c(0), r(0, 'other')]],
    ['a slot gap', [c(0), r(0), c(2), r(2)]],
    ['an open card', [c(0)]],
  ] as [string, TurnEvent[]][])('rejects %s', (_name, events) => {
    expect(slotProblems(events)).not.toEqual([]);
  });
  it('an open card is allowed only for a torn-down turn', () => {
    expect(slotProblems([c(0)], { open: true })).toEqual([]);
  });
});
