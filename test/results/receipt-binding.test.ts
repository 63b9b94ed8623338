import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, createReceiptGenerator, defineTool, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

/** Issue 16, item 11: a receipt is bound to its turn and call, and its fields cannot be re-split. */

const key = new Uint8Array(32).fill(3);
const ts = 1_700_000_000;

describe('receipts are bound to their call', () => {
  const receipts = createReceiptGenerator(key);
  const base = { turnId: 'turn-a', callId: 'call-1', name: 'calc', args: { x: 1 }, result: '42', ts };

  it('identical calls with different call ids get different receipts', () => {
    expect(receipts.generate(base)).not.toBe(receipts.generate({ ...base, callId: 'call-2' }));
  });

  it('identical calls in different turns get different receipts', () => {
    expect(receipts.generate(base)).not.toBe(receipts.generate({ ...base, turnId: 'turn-b' }));
  });

  it.each([
    ['another call', { callId: 'call-2' }],
    ['another turn', { turnId: 'turn-b' }],
    ['the call id moved into the turn id', { turnId: 'turn-acall-1', callId: '' }],
    ['the turn id moved into the call id', { turnId: '', callId: 'turn-acall-1' }],
  ])('verify rejects the receipt for %s', (_, change) => {
    const receipt = receipts.generate(base);
    const { ts: _ts, ...input } = base;
    expect(receipts.verify(receipt, input)).toBe(true);
    expect(receipts.verify(receipt, { ...input, ...change })).toBe(false);
  });
});

describe('fields are length-prefixed, so moving a separator between fields changes the receipt', () => {
  const receipts = createReceiptGenerator(key);
  const ids = { turnId: 't', callId: 'c', ts };

  it.each([
    // the v1 collision: name|args|result with `|` inside a field
    ['calc / {} / {}|42 vs calc|{} / {} / 42', { name: 'calc', args: {}, result: '{}|42' }, { name: 'calc|{}', args: {}, result: '42' }],
    ['a result that ends in a ts-like suffix', { name: 'calc', args: {}, result: '42|1700000000' }, { name: 'calc', args: {}, result: '42' }],
    ['a length prefix smuggled into a value', { name: '4:calc', args: {}, result: '42' }, { name: 'calc', args: {}, result: '4:42' }],
    ['text moved between name and result', { name: 'ab', args: [], result: 'c' }, { name: 'a', args: [], result: 'bc' }],
    ['arguments as a string vs as an object', { name: 'n', args: '{}', result: 'r' }, { name: 'n', args: {}, result: 'r' }],
  ])('%s', (_, one, two) => {
    const a = receipts.generate({ ...ids, ...one });
    const b = receipts.generate({ ...ids, ...two });
    expect(a).not.toBe(b);
    expect(receipts.verify(a, { ...ids, ...two })).toBe(false);
    expect(receipts.verify(b, { ...ids, ...one })).toBe(false);
  });
});

describe('in a turn, identical calls get different receipts, each verifying only for its own call', () => {
  const calc = defineTool({ name: 'calc', description: 'adds', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => String(a + b) });

  async function turn(turnId: string, dedupEnabled = false) {
    const receipts = createReceiptGenerator(key);
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'c1', name: 'calc', arguments: { a: 2, b: 40 } },
          { id: 'c2', name: 'calc', arguments: { a: 2, b: 40 } },
        ],
      },
      { text: 'ok' },
    ]);
    const agent = createAgent({ provider: model, model: 'm', tools: [calc], receipts, clock: { now: () => ts * 1000 }, knobs: { dedupEnabled } });
    const events = await lastValueFrom(agent.run({ message: 'add', ingress: { channel: 'cli', turnId } }).pipe(toArray()));
    const results = events.filter((e): e is Extract<TurnEvent, { type: 'tool-result' }> => e.type === 'tool-result');
    return { receipts, results };
  }

  it('two identical calls in one batch (dedup off)', async () => {
    const { receipts, results } = await turn('turn-1');
    const [one, two] = ['c1', 'c2'].map((id) => results.find((r) => r.id === id)!.receipt!);
    expect(one).toMatch(/^rtl-receipt-v2-1700000000-/);
    expect(one).not.toBe(two);
    const input = (callId: string) => ({ turnId: 'turn-1', callId, name: 'calc', args: { a: 2, b: 40 }, result: '42' });
    expect(receipts.verify(one, input('c1'))).toBe(true);
    expect(receipts.verify(two, input('c2'))).toBe(true);
    expect(receipts.verify(one, input('c2'))).toBe(false);
    expect(receipts.verify(two, input('c1'))).toBe(false);
    expect(receipts.verify(one, { ...input('c1'), turnId: 'turn-2' })).toBe(false);
  });

  it('the same call in two turns', async () => {
    const first = await turn('turn-1');
    const second = await turn('turn-2');
    const a = first.results.find((r) => r.id === 'c1')!.receipt!;
    const b = second.results.find((r) => r.id === 'c1')!.receipt!;
    expect(a).not.toBe(b);
    expect(first.receipts.verify(b, { turnId: 'turn-1', callId: 'c1', name: 'calc', args: { a: 2, b: 40 }, result: '42' })).toBe(false);
  });

  it('a deduplicated twin gets no receipt', async () => {
    const { results } = await turn('turn-1', true);
    expect(results.find((r) => r.id === 'c2')).toMatchObject({ outcome: 'deduplicated', receipt: undefined });
  });
});
