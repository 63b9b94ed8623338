import { describe, expect, it } from 'vitest';
import { ToolCallAssembler, type ToolCallDelta } from '../../src/provider/tool-call-assembler.js';

const assemble = (deltas: ToolCallDelta[]) => {
  const assembler = new ToolCallAssembler();
  for (const delta of deltas) assembler.push(delta);
  return assembler.complete();
};

describe('Tool-call deltas are assembled by index', () => {
  it('takes id and name from the first delta and concatenates the arguments', () => {
    expect(
      assemble([
        { index: 0, id: 'call_1', function: { name: 'add', arguments: '' } },
        { index: 0, function: { arguments: '{"a":' } },
        { index: 0, id: 'call_1', function: { name: 'add', arguments: '1}' } },
      ]),
    ).toEqual([{ id: 'call_1', name: 'add', arguments: '{"a":1}' }]);
  });

  it('keeps interleaved indices apart, in the order they first appeared', () => {
    expect(
      assemble([
        { index: 1, id: 'b', function: { name: 'second', arguments: '{"x"' } },
        { index: 0, id: 'a', function: { name: 'first', arguments: '{' } },
        { index: 1, function: { arguments: ':2}' } },
        { index: 0, function: { arguments: '}' } },
      ]),
    ).toEqual([
      { id: 'b', name: 'second', arguments: '{"x":2}' },
      { id: 'a', name: 'first', arguments: '{}' },
    ]);
  });

  it('gives the same call wherever the arguments are cut, at every character boundary', () => {
    const args = '{"path":"caf\\u00e9/\\"x\\".txt","n":[1,2]}';
    const whole = assemble([{ index: 0, id: 'c', function: { name: 'f', arguments: args } }]);
    for (let cut = 0; cut <= args.length; cut++) {
      expect(
        assemble([
          { index: 0, id: 'c', function: { name: 'f', arguments: args.slice(0, cut) } },
          { index: 0, function: { arguments: args.slice(cut) } },
        ]),
      ).toEqual(whole);
    }
    expect(assemble([{ index: 0, id: 'c', function: { name: 'f' } }, ...[...args].map((ch) => ({ index: 0, function: { arguments: ch } }))])).toEqual(whole);
  });

  it('a new id on an index that already has one starts a new call (servers that reuse index 0)', () => {
    expect(
      assemble([
        { index: 0, id: 'a', function: { name: 'one', arguments: '{}' } },
        { index: 0, id: 'b', function: { name: 'two', arguments: '{"k":' } },
        { index: 0, function: { arguments: '1}' } },
      ]),
    ).toEqual([
      { id: 'a', name: 'one', arguments: '{}' },
      { id: 'b', name: 'two', arguments: '{"k":1}' },
    ]);
  });

  it('deltas without an index continue the last call unless they bring a new id', () => {
    expect(
      assemble([
        { id: 'a', function: { name: 'one', arguments: '{"a"' } },
        { function: { arguments: ':1}' } },
        { id: 'b', function: { name: 'two', arguments: '{}' } },
      ]),
    ).toEqual([
      { id: 'a', name: 'one', arguments: '{"a":1}' },
      { id: 'b', name: 'two', arguments: '{}' },
    ]);
  });

  it('a call without an id has no id (the loop generates one); a call that never got a name is dropped', () => {
    expect(assemble([{ index: 0, function: { name: 'anon', arguments: '{}' } }, { index: 1, function: { arguments: '{"lost":1}' } }])).toEqual([
      { name: 'anon', arguments: '{}' },
    ]);
  });
});
