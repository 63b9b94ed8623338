import { describe, expect, it } from 'vitest';
import { parseTextToolCalls } from '../../src/index.js';
import { scanTextToolCalls } from '../../src/provider/text-protocol/parse-text-tool-calls.js';

const known = ['weather', 'add', 'note'];
const parse = (text: string) => scanTextToolCalls(text, known);
const calls = (text: string) => parseTextToolCalls(text, known);

describe('<tool_call> blocks (and the aliases <tool_calls>, <toolcall>, <tool-call>) hold JSON calls', () => {
  it('reads a call with its arguments', () => {
    expect(parse('Let me check. <tool_call>{"name": "weather", "arguments": {"city": "Oslo"}}</tool_call>')).toEqual({
      calls: [{ name: 'weather', arguments: { city: 'Oslo' } }],
      malformed: false,
    });
  });

  it.each(['tool_calls', 'toolcall', 'tool-call', 'TOOL_CALL', 'Tool_Call'])('reads the <%s> alias', (tag) => {
    expect(calls(`<${tag}>{"name": "add", "arguments": {"a": 1}}</${tag}>`)).toEqual([{ name: 'add', arguments: { a: 1 } }]);
  });

  it('reads several blocks in the order written, with text between them', () => {
    const text = '<tool_call>{"name":"add","arguments":{"a":1}}</tool_call> then <tool_call>{"name":"note","arguments":{"text":"x"}}</tool_call>';
    expect(calls(text).map((c) => c.name)).toEqual(['add', 'note']);
  });

  it('reads a list of calls, several JSON objects, or a ```json fence inside one block', () => {
    expect(calls('<tool_calls>[{"name":"add"},{"name":"note"}]</tool_calls>').map((c) => c.name)).toEqual(['add', 'note']);
    expect(calls('<tool_call>\n{"name":"add"}\n{"name":"note"}\n</tool_call>').map((c) => c.name)).toEqual(['add', 'note']);
    expect(calls('<tool_call>\n```json\n{"name":"add","arguments":{"a":2}}\n```\n</tool_call>')).toEqual([{ name: 'add', arguments: { a: 2 } }]);
  });

  it('accepts a mismatched closing alias, a stray extra brace, and a last block left unclosed', () => {
    expect(calls('<tool_call>{"name":"add"}</tool-call>')).toHaveLength(1);
    expect(calls('<tool_call>{"name":"add","arguments":{"a":1}}}</tool_call>')).toEqual([{ name: 'add', arguments: { a: 1 } }]);
    expect(calls('<tool_call>{"name":"add","arguments":{"a":1}}')).toEqual([{ name: 'add', arguments: { a: 1 } }]);
  });

  it('reads OpenAI-style {"function": {...}} bodies and the parameters key', () => {
    expect(calls('<tool_call>{"type":"function","function":{"name":"add","arguments":"{\\"a\\":3}"}}</tool_call>')).toEqual([
      { name: 'add', arguments: { a: 3 } },
    ]);
    expect(calls('<tool_call>{"name":"add","parameters":{"a":4}}</tool_call>')).toEqual([{ name: 'add', arguments: { a: 4 } }]);
  });

  it('keeps braces and tags inside JSON strings as text', () => {
    expect(calls('<tool_call>{"name":"note","arguments":{"text":"a } and </tool_call"}}</tool_call>')).toEqual([
      { name: 'note', arguments: { text: 'a } and </tool_call' } },
    ]);
  });
});

describe('<invoke name><parameter name>…</invoke> markup', () => {
  it('reads parameters: text as text, JSON values decoded', () => {
    const text =
      '<function_calls>\n<invoke name="weather">\n<parameter name="city">Oslo</parameter>\n<parameter name="days">3</parameter>\n' +
      '<parameter name="opts">{"metric": true}</parameter>\n<parameter name="zip">"0150"</parameter>\n</invoke>\n</function_calls>';
    expect(parse(text)).toEqual({ calls: [{ name: 'weather', arguments: { city: 'Oslo', days: 3, opts: { metric: true }, zip: '0150' } }], malformed: false });
  });

  it("accepts single quotes and keeps a multi-line value's inner newlines", () => {
    expect(calls("<invoke name='note'><parameter name='text'>\nline 1\nline 2\n</parameter></invoke>")).toEqual([
      { name: 'note', arguments: { text: 'line 1\nline 2' } },
    ]);
  });

  it('an invoke without a name, or never closed, is malformed', () => {
    expect(parse('<invoke nom="x"></invoke>')).toEqual({ calls: [], malformed: true });
    expect(parse('<invoke name="add"><parameter name="a">1</parameter>')).toEqual({ calls: [], malformed: true });
    expect(parse('<invoke name="add"><parameter name="a">1</invoke>')).toEqual({ calls: [], malformed: true });
  });

  it('reads the <function=name><parameter=key> form, bare or inside <tool_call>', () => {
    const body = '<function=note>\n<parameter=text>\nhello\n</parameter>\n</function>';
    expect(calls(body)).toEqual([{ name: 'note', arguments: { text: 'hello' } }]);
    expect(calls(`<tool_call>\n${body}\n</tool_call>`)).toEqual([{ name: 'note', arguments: { text: 'hello' } }]);
  });
});

describe('fenced ```tool_call blocks', () => {
  it('reads the JSON call in the fence', () => {
    expect(calls('Running it:\n```tool_call\n{"name": "add", "arguments": {"a": 5}}\n```\nDone.')).toEqual([{ name: 'add', arguments: { a: 5 } }]);
  });

  it('other fences are not calls, but a <tool_call> written inside one is', () => {
    expect(parse('```json\n{"name": "add"}\n```\nThat is the format.').calls).toEqual([]);
    expect(calls('```xml\n<tool_call>{"name":"add"}</tool_call>\n```')).toEqual([{ name: 'add', arguments: {} }]);
  });
});

describe('a whole response that is a JSON call, a list, or {"tool_calls": [...]}', () => {
  it('reads a bare JSON call, a list and the tool_calls wrapper', () => {
    expect(calls('  {"name": "add", "arguments": {"a": 1}}\n')).toEqual([{ name: 'add', arguments: { a: 1 } }]);
    expect(calls('[{"name": "add"}, {"name": "note"}]').map((c) => c.name)).toEqual(['add', 'note']);
    expect(calls('{"tool_calls": [{"function": {"name": "weather", "arguments": "{\\"city\\":\\"Rome\\"}"}}]}')).toEqual([
      { name: 'weather', arguments: { city: 'Rome' } },
    ]);
  });

  it('reads one inside a ```json fence that is the whole response', () => {
    expect(calls('```json\n{"name": "add", "arguments": {}}\n```')).toEqual([{ name: 'add', arguments: {} }]);
  });

  it('JSON that is not a call, or JSON inside prose, is an ordinary answer', () => {
    expect(parse('{"temperature": 21, "unit": "C"}')).toEqual({ calls: [], malformed: false });
    expect(parse('The call would be {"name": "add", "arguments": {}} but I will not.')).toEqual({ calls: [], malformed: false });
  });

  it('a whole response that starts a JSON call and breaks off is malformed', () => {
    expect(parse('{"name": "add", "arguments": {"a": ')).toEqual({ calls: [], malformed: true });
  });
});

describe('<think> blocks are stripped before parsing', () => {
  it('a call inside <think>…</think> is not executed; one after it is', () => {
    expect(calls('<think>maybe <tool_call>{"name":"note"}</tool_call>?</think>Sure. <tool_call>{"name":"add"}</tool_call>')).toEqual([
      { name: 'add', arguments: {} },
    ]);
  });

  it('handles <thinking>, any case, an unclosed block, and a closing tag without an opening one', () => {
    expect(calls('<THINKING><tool_call>{"name":"note"}</tool_call></Thinking><tool_call>{"name":"add"}</tool_call>')).toHaveLength(1);
    expect(calls('Ok. <think>let me call <tool_call>{"name":"add"}</tool_call>')).toEqual([]);
    expect(calls('I could call <tool_call>{"name":"note"}</tool_call>\n</think>\n<tool_call>{"name":"add"}</tool_call>')).toEqual([
      { name: 'add', arguments: {} },
    ]);
  });

  it('a JSON call left after stripping counts as a whole response', () => {
    expect(calls('<think>plan</think>\n{"name": "add", "arguments": {"a": 1}}')).toEqual([{ name: 'add', arguments: { a: 1 } }]);
  });
});

describe('text that is plainly an example is not executed', () => {
  it.each([
    'For example, <tool_call>{"name":"add"}</tool_call>',
    'You can write calls (e.g. <tool_call>{"name":"add"}</tool_call>) yourself.',
    'For instance:\n```tool_call\n{"name":"add"}\n```',
    'Here is an example call: <invoke name="add"></invoke>',
  ])('%s', (text) => {
    expect(parse(text)).toEqual({ calls: [], malformed: false });
  });

  it('the guard covers only the paragraph it is in, and a malformed example is not malformed', () => {
    expect(calls('For example, <tool_call>{"name":"note"}</tool_call>.\n\nNow for real: <tool_call>{"name":"add"}</tool_call>')).toEqual([
      { name: 'add', arguments: {} },
    ]);
    expect(parse('e.g. <tool_call>{"name": </tool_call>')).toEqual({ calls: [], malformed: false });
  });
});

describe('names not in the effective tool set are dropped', () => {
  it('drops unknown names, keeps the known ones in order, and is not malformed', () => {
    expect(parse('<tool_call>{"name":"shell","arguments":{"cmd":"rm -rf /"}}</tool_call><tool_call>{"name":"add"}</tool_call>')).toEqual({
      calls: [{ name: 'add', arguments: {} }],
      malformed: false,
    });
    expect(parseTextToolCalls('<tool_call>{"name":"add"}</tool_call>', [])).toEqual([]);
  });

  it('names are matched exactly (after trimming surrounding spaces)', () => {
    expect(calls('<tool_call>{"name":" add "}</tool_call><tool_call>{"name":"ADD"}</tool_call>')).toEqual([{ name: 'add', arguments: {} }]);
  });
});

describe('arguments: stringified JSON is decoded, anything but an object is refused', () => {
  it('decodes a JSON string, and treats missing, null or blank arguments as {}', () => {
    expect(calls('<tool_call>{"name":"add","arguments":"{\\"a\\": 1, \\"b\\": [2]}"}</tool_call>')).toEqual([{ name: 'add', arguments: { a: 1, b: [2] } }]);
    expect(calls('<tool_call>{"name":"add","arguments":null}</tool_call><tool_call>{"name":"add","arguments":" "}</tool_call>')).toEqual([
      { name: 'add', arguments: {} },
      { name: 'add', arguments: {} },
    ]);
  });

  it('a string that is not JSON, an array or a number as arguments is malformed', () => {
    for (const args of ['"{a: 1}"', '[1, 2]', '7', '"[1]"']) {
      expect(parse(`<tool_call>{"name":"add","arguments":${args}}</tool_call>`), args).toEqual({ calls: [], malformed: true });
    }
  });

  it('arguments nested deeper than 100 levels are malformed, not a stack overflow later', () => {
    const deep = `${'{"a":'.repeat(150)}1${'}'.repeat(150)}`;
    expect(parse(`<tool_call>{"name":"add","arguments":${deep}}</tool_call>`)).toEqual({ calls: [], malformed: true });
  });
});

describe('a response that looks like the protocol but cannot be read is malformed', () => {
  it.each([
    '<tool_call>{"name": "add", "arguments": {"a": 1}</tool_call>',
    '<tool_call>add(a=1)</tool_call>',
    '<tool_call></tool_call>',
    '<tool_call>{"arguments": {}}</tool_call>',
    '```tool_call\n{"name": \n```',
  ])('%s', (text) => {
    expect(parse(text)).toEqual({ calls: [], malformed: true });
  });

  it('prose that only mentions the tag, with no call after it, is not malformed', () => {
    expect(parse('I will answer without the <tool_call> format.')).toEqual({ calls: [], malformed: false });
  });

  it('readable calls are kept even when another block in the same response is malformed', () => {
    expect(parse('<tool_call>{"name":"add"}</tool_call><tool_call>{oops}</tool_call>')).toEqual({ calls: [{ name: 'add', arguments: {} }], malformed: true });
  });
});
