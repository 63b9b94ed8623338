import { describe, expect, it } from 'vitest';
import { formatFullArgs, summarizeArgs } from '../../src/index.js';
import { HIDDEN_PAYLOADS, PAYLOAD, unwrap } from './full-args-shapes.js';

describe('full arguments for the operator: every value whole, escaped, long lines wrapped', () => {
  it.each(HIDDEN_PAYLOADS)('$label: the full view shows the payload the summary cuts', ({ args }) => {
    expect(summarizeArgs(args)).not.toContain(PAYLOAD);
    expect(unwrap(formatFullArgs(args))).toContain(PAYLOAD);
  });

  it('puts path first, then the other keys in their order, one line each', () => {
    expect(formatFullArgs({ mode: 'w', path: '/tmp/a', n: 3 })).toBe('  path: /tmp/a\n  mode: w\n  n: 3');
  });

  it('wraps a long line at the width into ↳ continuation lines and loses nothing', () => {
    const text = formatFullArgs({ cmd: 'x'.repeat(250) }, { width: 50 });
    const lines = text.split('\n');
    expect(lines.length).toBe(6);
    expect(lines.every((l) => l.length <= 50)).toBe(true);
    expect(lines.slice(1).every((l) => l.startsWith('    ↳ '))).toBe(true);
    expect(unwrap(text)).toBe(`  cmd: ${'x'.repeat(250)}`);
  });

  it('never splits a surrogate pair when wrapping', () => {
    const text = formatFullArgs({ t: '😀'.repeat(30) }, { width: 20, indent: '' });
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(unwrap(text)).toBe(`t: ${'😀'.repeat(30)}`);
  });

  it('keeps runs of spaces (no collapsing): a padded command shows what follows the padding', () => {
    const command = `ls${' '.repeat(300)}; ${PAYLOAD}`;
    expect(unwrap(formatFullArgs({ command }, { width: 80 }))).toBe(`  command: ${command}`);
  });

  it('renders nested objects and arrays as indented JSON, every element kept', () => {
    const args = { a: { b: [1, { c: 'deep' }], d: null }, list: [[], {}] };
    expect(formatFullArgs(args, { indent: '' })).toBe(
      `a: ${JSON.stringify(args.a, null, 2)}\nlist: ${JSON.stringify(args.list, null, 2)}`,
    );
  });

  it('escapes newlines, ESC and bidi controls inside nested strings and keys too', () => {
    const text = formatFullArgs({ outer: { ['k\u202e']: ['a\nb', '\u001b[2J'] } });
    expect(text).toContain('"k\\u202e"');
    expect(text).toContain('"a\\nb"');
    expect(text).toContain('"\\u001b[2J"');
    expect(text.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u202a-\u202e]/);
  });

  it('hides nothing: secret-like keys and token shapes are shown as the tool will receive them', () => {
    expect(formatFullArgs({ auth_script: `echo; ${PAYLOAD}`, note: 'password=x;rm -rf /' })).toBe(
      `  auth_script: echo; ${PAYLOAD}\n  note: password=x;rm -rf /`,
    );
  });

  it('shows arguments that are not an object, and an empty object as (no arguments)', () => {
    expect(formatFullArgs('just text', { indent: '' })).toBe('just text');
    expect(formatFullArgs([1, 2], { indent: '' })).toBe('[\n  1,\n  2\n]');
    expect(formatFullArgs({})).toBe('  (no arguments)');
  });

  it('a 20 MB value is wrapped whole without blowing up (linear, no array per character)', () => {
    const value = 'q'.repeat(20 * 1024 * 1024);
    const text = formatFullArgs({ v: value }, { width: 1000 });
    expect(unwrap(text)).toBe(`  v: ${value}`);
  });

  it('Infinity width never wraps', () => {
    expect(formatFullArgs({ s: 'y'.repeat(5000) }, { width: Infinity }).split('\n')).toHaveLength(1);
  });
});
