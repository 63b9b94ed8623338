import { describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, MAX_REPLACEMENT_BYTES, sanitizeReplacement } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { outcomes, runTurn, scriptedDoor } from '../prep/harness.js';

describe('replacement: outcome replaced, success true, control characters removed (except \\n \\r \\t), cut to 65,536 bytes on a character boundary', () => {
  it('removes C0, DEL and C1 control characters but keeps newline, carriage return and tab', () => {
    expect(sanitizeReplacement('a\u0000b\u0007c\u001b[31md\u007fe\u0085f\n\r\tg')).toBe('abc[31mdef\n\r\tg');
  });

  it('keeps ordinary text, including non-ASCII, as it is', () => {
    expect(sanitizeReplacement('Grüße, 世界 😀')).toBe('Grüße, 世界 😀');
  });

  it('caps the text at 65,536 UTF-8 bytes', () => {
    const out = sanitizeReplacement('a'.repeat(70_000));
    expect(MAX_REPLACEMENT_BYTES).toBe(65_536);
    expect(Buffer.byteLength(out, 'utf8')).toBe(65_536);
  });

  it('cuts on a character boundary: a 3-byte or 4-byte character is never split', () => {
    const cjk = sanitizeReplacement('世'.repeat(30_000)); // 3 bytes each: 21,845 fit (65,535 bytes)
    expect(cjk).toBe('世'.repeat(21_845));
    const emoji = sanitizeReplacement(`a${'😀'.repeat(20_000)}`); // 1 + 4n ≤ 65,536 → 16,383 emoji
    expect(emoji).toBe(`a${'😀'.repeat(16_383)}`);
    expect(Buffer.byteLength(emoji, 'utf8')).toBeLessThanOrEqual(65_536);
    expect(emoji.endsWith('\ud83d')).toBe(false);
  });

  it('removes control characters before measuring, so they cost no budget', () => {
    const out = sanitizeReplacement('\u0001'.repeat(10) + 'b'.repeat(65_536));
    expect(out).toBe('b'.repeat(65_536));
  });

  it('a replaced slot carries the sanitized text with success true, and the tool never runs', async () => {
    const write = fakeTool('write', 'written');
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ name: 'write', arguments: {} }] }, { text: 'ok' }]),
      model: 'm',
      tools: [write],
      approval: new ApprovalManager({}, scriptedDoor([{ replaceWith: 'done\u0007 by hand\u001b[0m\n' }])),
    });
    const { events, done } = await runTurn(agent);
    expect(write.calls).toEqual([]);
    expect(outcomes(events)).toEqual([['write', 'replaced', true, 'done by hand[0m\n']]);
    expect(done!.history.at(-2)).toMatchObject({ role: 'tool', content: 'done by hand[0m\n' });
  });
});
