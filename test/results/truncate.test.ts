import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, truncateToolResult } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

const marker = (n: number) => `\n\n[... ${n} characters truncated ...]\n\n`;

describe('truncation keeps the first 2/3 and the last 1/3 of the budget, joined by the marker', () => {
  it('an output within the budget is returned unchanged', () => {
    expect(truncateToolResult('abcdef', 6)).toBe('abcdef');
    expect(truncateToolResult('', 10)).toBe('');
  });

  it('a longer output keeps floor(2/3) of the budget from the head and the rest from the tail', () => {
    const text = Array.from({ length: 100 }, (_, i) => String.fromCharCode(65 + (i % 26))).join('');
    const out = truncateToolResult(text, 30);
    expect(out).toBe(`${text.slice(0, 20)}${marker(70)}${text.slice(90)}`);
  });

  it('the marker counts exactly the characters removed', () => {
    const text = 'x'.repeat(1000);
    const out = truncateToolResult(text, 99);
    const [head, tail] = out.split(marker(901));
    expect(head).toHaveLength(66);
    expect(tail).toHaveLength(33);
  });

  it('0 disables truncation', () => {
    const text = 'y'.repeat(100_000);
    expect(truncateToolResult(text, 0)).toBe(text);
  });
});

describe('truncation is UTF-8 safe: it never splits a surrogate pair', () => {
  it('a cut that would fall inside an emoji at the head keeps the emoji out, whole', () => {
    const text = `${'a'.repeat(19)}😀${'b'.repeat(80)}`; // the emoji occupies indices 19 and 20
    const out = truncateToolResult(text, 30); // head would end at index 20, between the two halves
    const head = out.slice(0, out.indexOf('\n\n['));
    expect(head).toBe('a'.repeat(19));
    expect(isWellFormed(out)).toBe(true);
  });

  it('a cut that would fall inside an emoji at the tail drops the orphan half', () => {
    const text = `${'a'.repeat(80)}😀${'b'.repeat(9)}`; // tail of 10 would start on the low surrogate
    const out = truncateToolResult(text, 30);
    expect(out.endsWith('b'.repeat(9))).toBe(true);
    expect(out.slice(out.lastIndexOf('\n\n') + 2)).toBe('b'.repeat(9));
    expect(isWellFormed(out)).toBe(true);
  });

  it('every budget over a text full of astral characters yields well-formed text', () => {
    const text = '𝄞é😀中'.repeat(50);
    for (let budget = 1; budget < 60; budget++) expect(isWellFormed(truncateToolResult(text, budget))).toBe(true);
  });
});

describe('the model sees the bounded result; the receipt is made over the full output', () => {
  it('a tool result longer than maxToolResultChars reaches history truncated', async () => {
    const big = defineTool({ name: 'big', description: 'big', parameters: z.object({}), execute: () => 'z'.repeat(500) });
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'big', arguments: {} }] }, { text: 'ok' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [big], knobs: { maxToolResultChars: 90 } });
    const out = await agent.complete({ message: 'go' });
    const tool = out.history.find((m) => m.role === 'tool');
    expect(tool?.content).toBe(`${'z'.repeat(60)}${marker(410)}${'z'.repeat(30)}`);
  });
});

function isWellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}
