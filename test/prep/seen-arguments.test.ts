import { describe, expect, it } from 'vitest';
import { createPrepContext, recordArguments, type PrepContext } from '../../src/operators.js';
import { createAgent } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { outcomes, runTurn } from './harness.js';

const ctx = (): PrepContext => createPrepContext({ resolved: {}, turn: {} } as never);
/** Equal text, not the same string object. */
const copy = (text: string) => [...text].join('');

describe('the dedup guard’s record of a batch', () => {
  it('a call of the same tool with equal arguments is a duplicate; another tool or other arguments are not', () => {
    const c = ctx();
    expect(recordArguments(c, 'read', '{"p":"a"}')).toBe(true);
    expect(recordArguments(c, 'read', copy('{"p":"a"}'))).toBe(false);
    expect(recordArguments(c, 'other', '{"p":"a"}')).toBe(true);
    expect(recordArguments(c, 'read', '{"p":"b"}')).toBe(true);
    expect(recordArguments(c, copy('read'), '{"p":"b"}')).toBe(false);
  });

  it('past the calls it lists, it answers the same (as a Map of Sets)', () => {
    const c = ctx();
    for (let k = 0; k < 40; k++) expect(recordArguments(c, k % 2 === 0 ? 'a' : 'b', `{"k":${k}}`)).toBe(true);
    for (let k = 0; k < 40; k++) expect(recordArguments(c, k % 2 === 0 ? 'a' : 'b', copy(`{"k":${k}}`))).toBe(false);
    expect(recordArguments(c, 'b', '{"k":0}')).toBe(true);
    expect(c.seen.get('a')?.size).toBe(20);
  });

  it('`seen` shows what was recorded, and what a step changes in it counts from then on', () => {
    const c = ctx();
    expect(recordArguments(c, 'read', '{"p":"a"}')).toBe(true);
    expect(recordArguments(c, 'read', '{"p":"b"}')).toBe(true);
    expect(c.seen).toEqual(new Map([['read', new Set(['{"p":"a"}', '{"p":"b"}'])]]));
    c.seen.get('read')!.delete('{"p":"a"}');
    expect(recordArguments(c, 'read', '{"p":"a"}')).toBe(true);
    expect(recordArguments(c, 'read', '{"p":"b"}')).toBe(false);
    c.seen.set('write', new Set(['{}']));
    expect(recordArguments(c, 'write', '{}')).toBe(false);
  });

  it('a context of a step’s own making is recorded in its `seen`', () => {
    const own = { seen: new Map<string, Set<string>>() } as unknown as PrepContext;
    expect(recordArguments(own, 'read', '{}')).toBe(true);
    expect(recordArguments(own, 'read', '{}')).toBe(false);
    expect(own.seen).toEqual(new Map([['read', new Set(['{}'])]]));
  });

  it('a batch of 40 calls with 20 repeated: the repeats are deduplicated, in order', async () => {
    const read = fakeTool('read', (a) => `read ${JSON.stringify(a)}`);
    const calls = Array.from({ length: 40 }, (_, k) => ({ name: 'read', arguments: { p: k < 20 ? k : 39 - k } }));
    const agent = createAgent({ provider: scriptedModel([{ toolCalls: calls }, { text: 'ok' }]), model: 'm', tools: [read], knobs: { parallelTools: true } });
    const { events } = await runTurn(agent);
    expect(read.calls).toHaveLength(20);
    expect(outcomes(events).map((o) => o[1])).toEqual([...Array(20).fill('executed'), ...Array(20).fill('deduplicated')]);
  });
});
