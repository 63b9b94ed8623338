import OpenAI from 'openai';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApprovalManager, createAgent, defineTool, openAIChatProvider, progressLines, type ObserverEvent, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { startOpenAIServer, type OpenAIServer } from '../fixtures/openai-server.js';
import { leakedWindows, secretsCorpus } from '../fixtures/secrets-corpus.js';
import { errorOf } from '../provider/helpers.js';
import { expectHealthyTurn, runTurn } from './turn-runner.js';

/**
 * Issue 16, item 4: rendering surfaces that were not scrubbed — model text, token-shaped tool
 * names and argument keys, the library's own warn/error lines, a provider error that echoes the
 * client's key, and secrets split across stream chunks. History stays verbatim (invariant 6).
 */

const corpus = secretsCorpus();
const pick = (...names: string[]) => corpus.filter((s) => names.some((n) => s.name.startsWith(n)));
const SAMPLES = pick('OpenAI key (legacy', 'GitHub classic', 'AWS access key id', 'JWT', 'PostgreSQL URL', 'Password in YAML', 'RSA private key');

function allLines() {
  const lines: unknown[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('model text is scrubbed in text-delta events, done.text and progress lines; history keeps it', () => {
  it.each(SAMPLES.map((s) => [s.name, s] as const))('%s', async (_, sample) => {
    const observed: ObserverEvent[] = [];
    const model = scriptedModel([{ text: `Sure: ${sample.text}` }]);
    const run = await runTurn(createAgent({ provider: model, model: 'm', tools: [], observers: [(e) => void observed.push(e)] }));
    expectHealthyTurn(run, model.requests);
    const deltas = run.events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join('');
    const progress = await lastValueFrom(from(run.events).pipe(progressLines({ showText: true }), toArray()));
    expect(progress.length).toBeGreaterThan(0);
    for (const [surface, text] of Object.entries({ deltas, done: run.done!.text, progress: progress.join('\n') })) {
      expect({ surface, leaked: leakedWindows(text, sample.secret) }).toEqual({ surface, leaked: [] });
    }
    expect(run.done!.history.at(-1)).toEqual({ role: 'assistant', content: `Sure: ${sample.text}` });
  });

  it.each(SAMPLES.map((s) => [s.name, s] as const))('%s split across deltas at every point never survives a progress line', async (_, sample) => {
    const text = `Here: ${sample.text} ok`;
    for (let cut = 1; cut < text.length; cut += 3) {
      const events: TurnEvent[] = [
        { type: 'iteration', iteration: 1 },
        { type: 'text-delta', iteration: 1, text: text.slice(0, cut) },
        { type: 'text-delta', iteration: 1, text: text.slice(cut) },
      ];
      const lines = await lastValueFrom(from(events).pipe(progressLines({ showText: true }), toArray()));
      expect(lines.some((l) => l.startsWith('💬 Here:'))).toBe(true); // the text is rendered
      expect({ cut, leaked: leakedWindows(lines.join('\n'), sample.secret) }).toEqual({ cut, leaked: [] });
    }
  });

  it('receipts listed in done.text are kept exactly, while the answer around them is scrubbed', async () => {
    const tool = defineTool({ name: 'calc', description: 'c', parameters: z.object({}), execute: () => '42' });
    const { createReceiptGenerator } = await import('../../src/index.js');
    const receipts = createReceiptGenerator();
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 'c1', name: 'calc', arguments: {} }] }, { text: `token=${'a'.repeat(20)}` }]),
      model: 'm',
      tools: [tool],
      receipts,
      knobs: { appendReceiptsToAnswer: true },
    });
    const run = await runTurn(agent);
    const receipt = run.events.find((e) => e.type === 'tool-result')!.receipt!;
    expect(run.done!.text).toBe(`token=[REDACTED]\n\nReceipts:\n- ${receipt}`);
  });
});

describe('tool names and argument keys shaped like tokens are scrubbed on events, observers, progress lines and logs', () => {
  const SHAPES = pick('OpenAI key (legacy', 'GitHub classic', 'AWS access key id', 'Slack bot');
  it.each(SHAPES.map((s) => [s.name, s] as const))('%s', async (_, sample) => {
    const observed: ObserverEvent[] = [];
    const { lines, logger } = allLines();
    const echo = defineTool({ name: 'echo', description: 'e', parameters: z.record(z.string(), z.unknown()), execute: () => 'ok' });
    const model = scriptedModel([
      { toolCalls: [{ id: 'u', name: sample.secret, arguments: {} }, { id: 'k', name: 'echo', arguments: { [sample.secret]: 1 } }] },
      { text: 'done' },
    ]);
    const run = await runTurn(createAgent({ provider: model, model: 'm', tools: [echo], logger, observers: [(e) => void observed.push(e)] }));
    expectHealthyTurn(run, model.requests);
    const progress = await lastValueFrom(from(run.events).pipe(progressLines(), toArray()));
    const events = run.events.filter((e) => e.type !== 'done');
    for (const [surface, value] of Object.entries({ events, observed, progress, lines })) {
      expect({ surface, leaked: leakedWindows(JSON.stringify(value), sample.secret) }).toEqual({ surface, leaked: [] });
    }
    expect(JSON.stringify(run.done!.history)).toContain(sample.secret); // the model-visible record keeps it
  });
});

describe("the library's own warn/error lines are scrubbed", () => {
  const secret = corpus.find((s) => s.name.startsWith('GitHub classic'))!.secret;
  const boom = () => {
    throw new Error(`failed with ${secret}`);
  };
  const echo = defineTool({ name: 'echo', description: 'e', parameters: z.object({}), execute: () => 'ok' });
  const cases: [string, () => Parameters<typeof createAgent>[0]][] = [
    ['a failing beforeToolCall hook', () => ({ provider: scriptedModel([{ toolCalls: [{ name: 'echo', arguments: {} }] }, { text: 'x' }]), model: 'm', tools: [echo], hooks: { beforeToolCall: [boom] } })],
    ['a failing approval front door', () => ({
      provider: scriptedModel([{ toolCalls: [{ name: 'echo', arguments: {} }] }, { text: 'x' }]),
      model: 'm',
      tools: [echo],
      approval: new ApprovalManager({ alwaysAsk: ['echo'] }, { name: 'door', ask: boom }),
    })],
    ['a failing observer', () => ({ provider: scriptedModel([{ toolCalls: [{ name: 'echo', arguments: {} }] }, { text: 'x' }]), model: 'm', tools: [echo], observers: [boom] })],
    ['a failing max-iteration summary request', () => {
      let n = 0;
      const inner = scriptedModel(() => ({ toolCalls: [{ name: 'echo', arguments: { n: n++ } }] }));
      const provider = { ...inner, name: 'm', nativeTools: true, request: (req: never, signal: AbortSignal) => ((req as { tools?: unknown[] }).tools === undefined ? (boom() as never) : inner.request(req, signal)) };
      return { provider, model: 'm', tools: [defineTool({ name: 'echo', description: 'e', parameters: z.object({ n: z.number() }), execute: () => 'ok' })], knobs: { maxToolIterations: 2, dedupEnabled: false, loopDetection: { enabled: false } } };
    }],
  ];
  it.each(cases)('%s', async (_, config) => {
    const { lines, logger } = allLines();
    const run = await runTurn(createAgent({ ...config(), logger }));
    expect(run.error).toBeUndefined();
    const warned = lines.filter((l) => (l as { level: string }).level === 'warn' || (l as { level: string }).level === 'error');
    expect(warned.length).toBeGreaterThan(0);
    expect(leakedWindows(JSON.stringify(lines), secret)).toEqual([]);
    expect(JSON.stringify(warned)).toContain('failed with [REDACTED]');
  });
});

describe("the OpenAI provider redacts its own client's key wherever it reports an error", () => {
  let server: OpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const KEY = corpus.find((s) => s.name.startsWith('OpenAI project key'))!.secret;

  it.each([
    [401, (k: string) => `Incorrect API key provided: ${k}. You can find your API key at https://platform.openai.com.`],
    [401, (k: string) => `key ${k} rejected; retry with ${k}`],
    [403, (k: string) => `{"detail":"forbidden for ${k}"}`],
    [500, (k: string) => `upstream saw Authorization: Bearer ${k}`],
  ])('HTTP %i echoing the key', async (status, body) => {
    server = await startOpenAIServer([{ kind: 'http-error', status, message: body(KEY) }]);
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0, logLevel: 'off' });
    const err = (await errorOf(openAIChatProvider(client))) as Error & { status?: number };
    expect(err.status).toBe(status);
    expect(err.message).toContain('[REDACTED]');
    expect(leakedWindows(err.message, KEY)).toEqual([]);
  });
});
