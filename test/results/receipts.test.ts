import { createHmac } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, createReceiptGenerator, defineTool, type TurnEvent } from '../../src/index.js';
import { createTestScheduler, scriptedModel } from '../../src/testing/index.js';

const key = new Uint8Array(32).map((_, i) => i + 1);
const FORMAT = /^rtl-receipt-v2-(\d+)-([A-Za-z0-9_-]{43})$/;
const call = (name: string, args: unknown, result: string) => ({ turnId: 'turn-1', callId: 'call-1', name, args, result });

describe('a receipt is HMAC-SHA256 over length-prefixed fields, formatted rtl-receipt-v2-{ts}-{base64url mac}', () => {
  it('matches an independently computed HMAC over the documented message', () => {
    const receipts = createReceiptGenerator(key);
    const receipt = receipts.generate({ ...call('weather', { city: 'Oslo', opts: { units: 'metric', days: 2 } }, 'rain'), ts: 1_700_000_000 });
    const fields = ['rtl-receipt-v2', 'turn-1', 'call-1', 'weather', '{"city":"Oslo","opts":{"days":2,"units":"metric"}}', 'rain', '1700000000'];
    const message = fields.map((f) => `${Buffer.byteLength(f)}:${f}`).join('');
    const mac = createHmac('sha256', key).update(message).digest('base64url');
    expect(receipt).toBe(`rtl-receipt-v2-1700000000-${mac}`);
    expect(mac).not.toContain('=');
  });

  it('lengths are UTF-8 byte lengths, not UTF-16 code units', () => {
    const receipts = createReceiptGenerator(key);
    const receipt = receipts.generate({ turnId: 't', callId: 'c', name: 'é', args: {}, result: '🙂', ts: 1 });
    const message = '14:rtl-receipt-v21:t1:c2:é2:{}4:🙂1:1';
    expect(receipt).toBe(`rtl-receipt-v2-1-${createHmac('sha256', key).update(message).digest('base64url')}`);
  });

  it('argsJson is compact with keys sorted recursively, so key order does not matter', () => {
    const receipts = createReceiptGenerator(key);
    const a = receipts.generate({ ...call('t', { b: [{ y: 1, x: 2 }], a: null }, 'r'), ts: 5 });
    const b = receipts.generate({ ...call('t', { a: null, b: [{ x: 2, y: 1 }] }, 'r'), ts: 5 });
    expect(a).toBe(b);
    expect(receipts.verify(a, call('t', { a: null, b: [{ x: 2, y: 1 }] }, 'r'))).toBe(true);
  });

  it("defaults ts to the current Unix second of the generator's clock", () => {
    let now = 1_700_000_000_999;
    const receipts = createReceiptGenerator(key, { clock: { now: () => now } });
    const first = receipts.generate(call('t', {}, 'r'));
    expect(FORMAT.exec(first)?.[1]).toBe('1700000000');
    expect(receipts.verify(first, call('t', {}, 'r'))).toBe(true);
    now += 1;
    expect(FORMAT.exec(receipts.generate(call('t', {}, 'r')))?.[1]).toBe('1700000001');
  });

  it("without a clock, the default clock's (RxJS's scheduler: virtual time in a TestScheduler)", () => {
    createTestScheduler(expect).run(() => {
      const receipt = createReceiptGenerator(key).generate(call('t', {}, 'r'));
      expect(FORMAT.exec(receipt)?.[1]).toBe('0');
    });
  });

  it('without a key, each generator draws its own random key', () => {
    const one = createReceiptGenerator().generate({ ...call('t', {}, 'r'), ts: 1 });
    const two = createReceiptGenerator().generate({ ...call('t', {}, 'r'), ts: 1 });
    expect(one).toMatch(FORMAT);
    expect(one).not.toBe(two);
  });

  it('an empty key, a non-integer timestamp or a missing turn or call id is a ConfigurationError', () => {
    expect(() => createReceiptGenerator(new Uint8Array(0))).toThrow(ConfigurationError);
    expect(() => createReceiptGenerator(key).generate({ ...call('t', {}, 'r'), ts: 1.5 })).toThrow(ConfigurationError);
    expect(() => createReceiptGenerator(key).generate({ ...call('t', {}, 'r'), turnId: undefined as unknown as string })).toThrow(ConfigurationError);
    expect(() => createReceiptGenerator(key).generate({ ...call('t', {}, 'r'), callId: 7 as unknown as string })).toThrow(ConfigurationError);
  });
});

describe('verify accepts only an untampered receipt for exactly the same inputs', () => {
  const receipts = createReceiptGenerator(key);
  const sent = call('transfer', { to: 'acct-1', amount: 10 }, 'sent');
  const receipt = receipts.generate({ ...sent, ts: 1_700_000_123 });

  it('the genuine receipt verifies', () => {
    expect(receipts.verify(receipt, { ...sent, args: { amount: 10, to: 'acct-1' } })).toBe(true);
  });

  it('changed name, arguments or result fail', () => {
    expect(receipts.verify(receipt, { ...sent, name: 'transfer2' })).toBe(false);
    expect(receipts.verify(receipt, { ...sent, args: { to: 'acct-1', amount: 11 } })).toBe(false);
    expect(receipts.verify(receipt, { ...sent, result: 'sent ' })).toBe(false);
  });

  it('a tampered timestamp or mac fails', () => {
    expect(receipts.verify(receipt.replace('1700000123', '1700000124'), sent)).toBe(false);
    const mac = receipt.slice(-43);
    const flipped = (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1);
    expect(receipts.verify(receipt.slice(0, -43) + flipped, sent)).toBe(false);
  });

  it('a receipt forged with another key fails', () => {
    const forged = createReceiptGenerator(new Uint8Array(32).fill(7)).generate({ ...sent, ts: 1_700_000_123 });
    expect(receipts.verify(forged, sent)).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['another prefix', receipt.replace('rtl-receipt-v2-', 'rtl-receipts-v2-')],
    ['the v1 prefix', receipt.replace('rtl-receipt-v2-', 'rtl-receipt-')],
    ['padding', `${receipt}=`],
    ['a short mac', receipt.slice(0, -1)],
    ['a long mac', `${receipt}A`],
    ['a non-numeric timestamp', receipt.replace('1700000123', '17000001x3')],
    ['a leading zero', receipt.replace('1700000123', '01700000123')],
    ['standard base64 characters', receipt.slice(0, -43) + '+' + receipt.slice(-42)],
    ['surrounding whitespace', ` ${receipt}`],
    ['a changed last character', receipt.slice(0, -1) + String.fromCharCode(receipt.charCodeAt(receipt.length - 1) ^ 1)],
  ])('a malformed receipt (%s) fails without throwing', (_, bad) => {
    expect(receipts.verify(bad, sent)).toBe(false);
  });

  it('non-string input fails without throwing', () => {
    expect(receipts.verify(undefined as unknown as string, sent)).toBe(false);
    expect(receipts.verify(receipt, { ...sent, result: 42 as unknown as string })).toBe(false);
    expect(receipts.verify(receipt, undefined as never)).toBe(false);
  });
});

describe('in a turn, receipts are made for successful executions only, over the full output', () => {
  const now = 1_700_000_000_900; // ms → ts 1700000000
  const long = 'L'.repeat(300);
  const tools = [
    defineTool({ name: 'read', description: 'r', parameters: z.object({ path: z.string() }), execute: ({ path }) => `${path}:${long}` }),
    defineTool({ name: 'broken', description: 'b', parameters: z.object({}), execute: () => ({ success: false, output: '', error: 'disk full' }) }),
    defineTool({ name: 'quiet', description: 'q', parameters: z.object({}), execute: () => '' }),
  ];
  const script = () =>
    scriptedModel([
      {
        toolCalls: [
          { id: 'c1', name: 'read', arguments: { path: 'a.txt' } },
          { id: 'c2', name: 'broken', arguments: {} },
          { id: 'c3', name: 'nope', arguments: {} },
          { id: 'c4', name: 'read', arguments: { path: 5 } },
          { id: 'c5', name: 'quiet', arguments: {} },
        ],
      },
      { text: 'All read.' },
    ]);

  async function run(knobs = {}) {
    const receipts = createReceiptGenerator(key);
    const agent = createAgent({ provider: script(), model: 'm', tools, receipts, clock: { now: () => now }, knobs: { maxToolResultChars: 60, ...knobs } });
    const events = await lastValueFrom(agent.run({ message: 'go', ingress: { channel: 'cli', turnId: 'turn-9' } }).pipe(toArray()));
    const results = events.filter((e): e is Extract<TurnEvent, { type: 'tool-result' }> => e.type === 'tool-result');
    const done = events.at(-1) as Extract<TurnEvent, { type: 'done' }>;
    return { receipts, results, done };
  }

  it('the executed slots carry a receipt on the event and at the end of the model-visible result', async () => {
    const { receipts, results, done } = await run();
    const byId = new Map(results.map((r) => [r.id, r]));
    const read = byId.get('c1')!;
    expect(read.receipt).toMatch(/^rtl-receipt-v2-1700000000-[A-Za-z0-9_-]{43}$/);
    expect(read.output).not.toContain('[receipt:');
    const content = done.history.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(content[0].endsWith(`\n\n[receipt: ${read.receipt}]`)).toBe(true);
    expect(content[0]).toContain('characters truncated');
    expect(receipts.verify(read.receipt!, { turnId: 'turn-9', callId: 'c1', name: 'read', args: { path: 'a.txt' }, result: `a.txt:${long}` })).toBe(true);
    expect(receipts.verify(read.receipt!, { turnId: 'turn-9', callId: 'c1', name: 'read', args: { path: 'a.txt' }, result: content[0] })).toBe(false);
    expect(receipts.verify(byId.get('c5')!.receipt!, { turnId: 'turn-9', callId: 'c5', name: 'quiet', args: {}, result: '(no output)' })).toBe(true);
  });

  it('failed, unknown and invalid-argument slots get no receipt', async () => {
    const { results, done } = await run();
    for (const id of ['c2', 'c3', 'c4']) {
      const result = results.find((r) => r.id === id)!;
      expect(result.success).toBe(false);
      expect(result.receipt).toBeUndefined();
    }
    const content = done.history.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(content.slice(1, 4).some((c) => c.includes('[receipt:'))).toBe(false);
  });

  it('appendReceiptsToAnswer lists the turn receipts at the end of the final answer', async () => {
    const { results, done } = await run({ appendReceiptsToAnswer: true });
    const made = results.filter((r) => r.receipt).map((r) => r.receipt);
    expect(made).toHaveLength(2);
    expect(done.text).toBe(`All read.\n\nReceipts:\n${made.map((r) => `- ${r}`).join('\n')}`);
    expect(done.history.at(-1)).toEqual({ role: 'assistant', content: 'All read.' });
  });

  it('without appendReceiptsToAnswer the final answer is the model text', async () => {
    const { done } = await run();
    expect(done.text).toBe('All read.');
  });
});

describe('the receipt input is never scrubbed', () => {
  it('a result holding a credential is receipted as the tool returned it, while the event output is scrubbed', async () => {
    const raw = 'config: password=hunter2hunter2';
    const leaky = defineTool({ name: 'config', description: 'c', parameters: z.object({}), execute: () => raw });
    const receipts = createReceiptGenerator(key);
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 'k1', name: 'config', arguments: {} }] }, { text: 'ok' }]),
      model: 'm',
      tools: [leaky],
      receipts,
    });
    const events = await lastValueFrom(agent.run({ message: 'go', ingress: { channel: 'cli', turnId: 't-k' } }).pipe(toArray()));
    const result = events.find((e): e is Extract<TurnEvent, { type: 'tool-result' }> => e.type === 'tool-result')!;
    expect(result.output).toBe('config: password=[REDACTED]');
    expect(receipts.verify(result.receipt!, { turnId: 't-k', callId: 'k1', name: 'config', args: {}, result: raw })).toBe(true);
    expect(receipts.verify(result.receipt!, { turnId: 't-k', callId: 'k1', name: 'config', args: {}, result: result.output })).toBe(false);
  });
});
