import { describe, expect, it } from 'vitest';
import { parseTextToolCalls } from '../../src/index.js';
import type { ScanMeter } from '../../src/provider/text-protocol/finder.js';
import { stripThink } from '../../src/provider/text-protocol/strip-think.js';

/**
 * A `<think>` block ends at the closing tag that matches its opening one: an inner
 * `<think>…</think>` pair does not end the outer block, so a call written after the inner pair
 * is still reasoning and never runs.
 */

const known = ['add', 'note'];
const calls = (text: string) => parseTextToolCalls(text, known);

/** A call in each format the parser reads. */
const CALL_FORMATS = [
  '<tool_call>{"name":"add","arguments":{"a":1}}</tool_call>',
  '<TOOL_CALLS>[{"name":"add","arguments":{"a":1}}]</TOOL_CALLS>',
  '<invoke name="add"><parameter name="a">1</parameter></invoke>',
  '```tool_call\n{"name":"add","arguments":{"a":1}}\n```',
  '{"name":"add","arguments":{"a":1}}',
];

describe('a call inside a nested <think> block never runs', () => {
  it.each(CALL_FORMATS)('after an inner pair: %s', (call) => {
    expect(calls(`<think>a <think>b</think> ${call} </think>`)).toEqual([]);
    expect(calls(`<think>a <think>b</think> ${call} </think>The answer.`)).toEqual([]);
  });

  it.each([
    ['three levels', (c: string) => `<think>1 <think>2 <think>3</think> ${c} </think> ${c} </think>`],
    ['two inner pairs in a row', (c: string) => `<think>a <think>b</think><think>c</think> ${c} </think>`],
    ['<thinking> around <think>', (c: string) => `<thinking>a <think>b</think> ${c} </thinking>`],
    ['<think> around <thinking>', (c: string) => `<think>a <thinking>b</thinking> ${c} </think>`],
    ['any letter case', (c: string) => `<THINK>a <Think>b</THINK> ${c} </tHiNk>`],
    ['an inner block right at the start', (c: string) => `<think><think></think>${c}</think>`],
    ['an inner opening left unclosed', (c: string) => `<think>a <think>b ${c} </think>`],
    ['an outer block left unclosed', (c: string) => `<think>a <think>b</think> ${c}`],
  ])('%s', (_name, shape) => {
    for (const call of CALL_FORMATS.slice(0, 4)) expect(calls(shape(call))).toEqual([]);
  });

  it('a call after the outer block closes does run, once', () => {
    const call = '<tool_call>{"name":"add","arguments":{"a":1}}</tool_call>';
    expect(calls(`<think>a <think>b</think> ${call} </think> ${call}`)).toEqual([{ name: 'add', arguments: { a: 1 } }]);
    expect(calls(`<think>a</think> ${call} <think>b <think>c</think> ${call} </think>`)).toEqual([{ name: 'add', arguments: { a: 1 } }]);
  });

  it('a closing tag with no opening one still hides everything before it, nested blocks included', () => {
    const call = '<tool_call>{"name":"add","arguments":{"a":1}}</tool_call>';
    const note = '<tool_call>{"name":"note","arguments":{}}</tool_call>';
    // the template opened the block in the prompt; the model nests a block inside it
    expect(calls(`x <think>y</think> ${note} </think> ${call}`)).toEqual([{ name: 'add', arguments: { a: 1 } }]);
    expect(calls(`${note} </think> ${call}`)).toEqual([{ name: 'add', arguments: { a: 1 } }]);
  });
});

describe('stripThink keeps only the text outside every block', () => {
  it.each([
    ['<think>a <think>b</think> c </think>ok', 'ok'],
    ['pre <think>a <think>b</think> c </think> post', 'pre  post'],
    ['a <think>1</think> b <think>2 <think>3</think> 4</think> c', 'a  b  c'],
    ['<think>a <think>b</think> c', ''],
    ['kept <think>a <think>b</think> c', 'kept '],
    ['no blocks here, just thinking aloud', 'no blocks here, just thinking aloud'],
    ['<thinker>is not a tag</thinker>', '<thinker>is not a tag</thinker>'],
  ])('%j → %j', (text, expected) => {
    expect(stripThink(text)).toBe(expected);
  });

  it.each([
    ['deep nesting', '<think>'.repeat(50_000) + '</think>'.repeat(50_000)],
    ['nested pairs', '<think>a <think>b</think> '.repeat(20_000)],
    ['closings only', '</think>'.repeat(50_000)],
  ])('%s: one pass, a bounded number of steps per character', (_name, text) => {
    const meter: ScanMeter = { steps: 0 };
    stripThink(text, undefined, meter);
    expect(meter.steps / text.length).toBeLessThanOrEqual(6);
  });
});
