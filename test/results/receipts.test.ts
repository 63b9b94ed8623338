import { createHmac } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, createReceiptGenerator, defineTool, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

const key = new Uint8Array(32).map((_, i) => i + 1);
const FORMAT = /^rtl-receipt-(\d+)-([A-Za-z0-9_-]{43})$/;

describe('a receipt is HMAC-SHA256 over name|argsJson|result|ts, formatted rtl-receipt-{ts}-{base64url mac}', () => {
  it('matches an independently computed HMAC over the documented message', () => {
    const receipts = createReceiptGenerator(key);
    const receipt = receipts.generate('weather', { city: 'Oslo', opts: { units: 'metric', days: 2 } }, 'rain', 1_700_000_000);
    const message = 'weather|{"city":"Oslo","opts":{"days":2,"units":"metric"}}|rain|1700000000';
    const mac = createHmac('sha256', key).update(message).digest('base64url');
    expect(receipt).toBe(`rtl-receipt-1700000000-${mac}`);
    expect(mac).not.toContain('=');
  });

  it('argsJson is compact with keys sorted recursively, so key order does not matter', () => {
    const receipts = createReceiptGenerator(key);
    const a = receipts.generate('t', { b: [{ y: 1, x: 2 }], a: null }, 'r', 5);
    const b = receipts.generate('t', { a: null, b: [{ x: 2, y: 1 }] }, 'r', 5);
    expect(a).toBe(b);
    expect(receipts.verify(a, 't', { a: null, b: [{ x: 2, y: 1 }] }, 'r')).toBe(true);
  });

  it('defaults ts to the current Unix second', () => {
    const before = Math.floor(Date.now() / 1000);
    const receipt = createReceiptGenerator().generate('t', {}, 'r');
    const ts = Number(FORMAT.exec(receipt)?.[1]);
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(before + 1);
  });

  it('without a key, each generator draws its own random key', () => {
    const one = createReceiptGenerator().generate('t', {}, 'r', 1);
    const two = createReceiptGenerator().generate('t', {}, 'r', 1);
    expect(one).toMatch(FORMAT);
    expect(one).not.toBe(two);
  });

  it('an empty key or a non-integer timestamp is a ConfigurationError', () => {
    expect(() => createReceiptGenerator(new Uint8Array(0))).toThrow(ConfigurationError);
    expect(() => createReceiptGenerator(key).generate('t', {}, 'r', 1.5)).toThrow(ConfigurationError);
  });
});

describe('verify accepts only an untampered receipt for exactly the same inputs', () => {
  const receipts = createReceiptGenerator(key);
  const receipt = receipts.generate('transfer', { to: 'acct-1', amount: 10 }, 'sent', 1_700_000_123);

  it('the genuine receipt verifies', () => {
    expect(receipts.verify(receipt, 'transfer', { amount: 10, to: 'acct-1' }, 'sent')).toBe(true);
  });

  it('changed name, arguments or result fail', () => {
    expect(receipts.verify(receipt, 'transfer2', { to: 'acct-1', amount: 10 }, 'sent')).toBe(false);
    expect(receipts.verify(receipt, 'transfer', { to: 'acct-1', amount: 11 }, 'sent')).toBe(false);
    expect(receipts.verify(receipt, 'transfer', { to: 'acct-1', amount: 10 }, 'sent ')).toBe(false);
  });

  it('a tampered timestamp or mac fails', () => {
    expect(receipts.verify(receipt.replace('1700000123', '1700000124'), 'transfer', { to: 'acct-1', amount: 10 }, 'sent')).toBe(false);
    const mac = receipt.slice(-43);
    const flipped = (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1);
    expect(receipts.verify(receipt.slice(0, -43) + flipped, 'transfer', { to: 'acct-1', amount: 10 }, 'sent')).toBe(false);
  });

  it('a receipt forged with another key fails', () => {
    const forged = createReceiptGenerator(new Uint8Array(32).fill(7)).generate('transfer', { to: 'acct-1', amount: 10 }, 'sent', 1_700_000_123);
    expect(receipts.verify(forged, 'transfer', { to: 'acct-1', amount: 10 }, 'sent')).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['another prefix', receipt.replace('rtl-receipt-', 'rtl-receipts-')],
    ['padding', `${receipt}=`],
    ['a short mac', receipt.slice(0, -1)],
    ['a long mac', `${receipt}A`],
    ['a non-numeric timestamp', receipt.replace('1700000123', '17000001x3')],
    ['a leading zero', receipt.replace('1700000123', '01700000123')],
    ['standard base64 characters', receipt.slice(0, -43) + '+' + receipt.slice(-42)],
    ['surrounding whitespace', ` ${receipt}`],
    ['a changed last character', receipt.slice(0, -1) + String.fromCharCode(receipt.charCodeAt(receipt.length - 1) ^ 1)],
  ])('a malformed receipt (%s) fails without throwing', (_, bad) => {
    expect(receipts.verify(bad, 'transfer', { to: 'acct-1', amount: 10 }, 'sent')).toBe(false);
  });

  it('non-string input fails without throwing', () => {
    expect(receipts.verify(undefined as unknown as string, 'transfer', {}, 'sent')).toBe(false);
    expect(receipts.verify(receipt, 'transfer', { to: 'acct-1', amount: 10 }, 42 as unknown as string)).toBe(false);
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
    const events = await lastValueFrom(agent.run({ message: 'go' }).pipe(toArray()));
    const results = events.filter((e): e is Extract<TurnEvent, { type: 'tool-result' }> => e.type === 'tool-result');
    const done = events.at(-1) as Extract<TurnEvent, { type: 'done' }>;
    return { receipts, results, done };
  }

  it('the executed slots carry a receipt on the event and at the end of the model-visible result', async () => {
    const { receipts, results, done } = await run();
    const byId = new Map(results.map((r) => [r.id, r]));
    const read = byId.get('c1')!;
    expect(read.receipt).toMatch(/^rtl-receipt-1700000000-[A-Za-z0-9_-]{43}$/);
    expect(read.output).not.toContain('[receipt:');
    const content = done.history.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(content[0].endsWith(`\n\n[receipt: ${read.receipt}]`)).toBe(true);
    expect(content[0]).toContain('characters truncated');
    expect(receipts.verify(read.receipt!, 'read', { path: 'a.txt' }, `a.txt:${long}`)).toBe(true);
    expect(receipts.verify(read.receipt!, 'read', { path: 'a.txt' }, content[0])).toBe(false);
    expect(receipts.verify(byId.get('c5')!.receipt!, 'quiet', {}, '(no output)')).toBe(true);
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
      provider: scriptedModel([{ toolCalls: [{ name: 'config', arguments: {} }] }, { text: 'ok' }]),
      model: 'm',
      tools: [leaky],
      receipts,
    });
    const events = await lastValueFrom(agent.run({ message: 'go' }).pipe(toArray()));
    const result = events.find((e): e is Extract<TurnEvent, { type: 'tool-result' }> => e.type === 'tool-result')!;
    expect(result.output).toBe('config: password=hunt*[REDACTED]');
    expect(receipts.verify(result.receipt!, 'config', {}, raw)).toBe(true);
    expect(receipts.verify(result.receipt!, 'config', {}, result.output)).toBe(false);
  });
});
