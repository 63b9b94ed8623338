import { describe, expect, it } from 'vitest';
import { main } from '../../examples/custom-loop.js';

describe('examples/custom-loop.ts: a loop assembled by hand from the public operators', () => {
  it('runs three iterations to the answer, closing cards in completion order and appending history in slot order', async () => {
    const lines: string[] = [];
    const result = await main((line) => lines.push(line));

    expect(result.answer).toBe('Cairo is the warmest at 27 °C (81 °F); Oslo is the coldest at 4 °C.');
    expect(result.iterations).toBe(3);
    expect(lines.filter((l) => l.startsWith('  └')).slice(0, 3)).toEqual([
      '  └ [1] forecast executed: 19 °C',
      '  └ [2] forecast executed: 27 °C',
      '  └ [0] forecast executed: 4 °C',
    ]);
    // the cards open in slot order, before any of them closes
    expect(lines.slice(1, 5)).toEqual([
      '── iteration 1',
      '  ┌ [0] forecast {"city":"Oslo"}',
      '  ┌ [1] forecast {"city":"Lima"}',
      '  ┌ [2] forecast {"city":"Cairo"}',
    ]);
    expect(lines).toContain('── done (final) after 3 iterations; history ← 8 messages');
    expect(result.history.map((m) => (m.role === 'tool' ? `tool ${m.tool_call_id}: ${m.content}` : m.role))).toEqual([
      'user',
      'assistant',
      'tool fc_oslo: 4 °C',
      'tool fc_lima: 19 °C',
      'tool fc_cairo: 27 °C',
      'assistant',
      'tool conv_1: 81',
      'assistant',
    ]);
    expect(lines.at(-1)).toBe(`answer: ${result.answer}`);
  });
});
