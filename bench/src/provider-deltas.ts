import Anthropic from '@anthropic-ai/sdk';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import OpenAI from 'openai';
import { lastValueFrom, toArray } from 'rxjs';
import type * as Lib from '../../src/index.js';
import { replySse as anthropicSse } from '../../test/fixtures/anthropic-server.js';
import { replySse as chatSse } from '../../test/fixtures/openai-server.js';
import { replySse as responsesSse } from '../../test/fixtures/responses-server.js';
import { fmt, median } from './measure.js';

type AnyLib = typeof Lib & Record<string, unknown>;

export interface ProviderDeltasOptions {
  readonly runs: number;
  /** Tool calls per response; each streams its arguments in `FRAGMENTS` deltas. */
  readonly calls: number;
}

const FRAGMENTS = 4;
const TEXT_DELTAS = 50;

/** A call's arguments as the model streams them: `FRAGMENTS` pieces of about 20 bytes. */
const fragments = (k: number): string[] => {
  const json = JSON.stringify({ i: k, path: `notes/${k}.txt`, note: 'nothing to see here' });
  const size = Math.ceil(json.length / FRAGMENTS);
  return Array.from({ length: FRAGMENTS }, (_, n) => json.slice(n * size, (n + 1) * size));
};
const words = Array.from({ length: TEXT_DELTAS }, (_, n) => `word${n} `);

/** One streamed response per vendor wire format: text deltas, then `calls` calls in fragments. */
function bodies(calls: number): Record<'chat' | 'responses' | 'anthropic', string> {
  const ids = Array.from({ length: calls }, (_, k) => k);
  return {
    chat: chatSse({ kind: 'reply', text: words, toolCalls: ids.map((k) => ({ id: `call_${k}`, name: 'noop', arguments: fragments(k) })) }),
    responses: responsesSse({ kind: 'reply', text: words, toolCalls: ids.map((k) => ({ callId: `call_${k}`, name: 'noop', arguments: fragments(k) })) }),
    anthropic: anthropicSse({
      kind: 'reply',
      content: [{ type: 'text', text: words }, ...ids.map((k) => ({ type: 'tool_use' as const, id: `toolu_${k}`, name: 'noop', input: fragments(k) }))],
    }),
  };
}

/** A fetch that answers every request with `body` as an event stream, in 16 KB chunks. */
function serving(body: string): typeof fetch {
  const bytes = new TextEncoder().encode(body);
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 16 * 1024) controller.enqueue(bytes.subarray(at, at + 16 * 1024));
          controller.close();
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
}

/** CPU microseconds per streamed delta (text and argument deltas) of one provider, median of `runs`. */
async function cpuPerDelta(provider: Lib.ModelProvider, runs: number, calls: number): Promise<{ us: number; deltas: number }> {
  const req = { model: 'bench', messages: [{ role: 'user' as const, content: 'go' }] };
  let deltas = 0;
  const once = async () => {
    const events = await lastValueFrom(provider.request(req, new AbortController().signal).pipe(toArray()));
    deltas = events.filter((e) => e.type === 'text-delta' || e.type === 'tool-call-delta').length;
    const complete = events.filter((e) => e.type === 'tool-call').length;
    if (complete !== calls) throw new Error(`${provider.name}: ${complete} of ${calls} calls`);
  };
  for (let w = 0; w < 3; w++) await once();
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = process.cpuUsage();
    await once();
    const used = process.cpuUsage(start);
    samples.push((used.user + used.system) / deltas);
  }
  return { us: median(samples), deltas };
}

/** The floor: split the same body into events and JSON.parse each `data:` line, per delta. */
function floorPerDelta(body: string, deltas: number, runs: number): number {
  const samples: number[] = [];
  for (let r = 0; r < runs + 3; r++) {
    const start = process.cpuUsage();
    for (const event of body.split('\n\n')) {
      const data = event.split('\n').find((line) => line.startsWith('data: '));
      if (data !== undefined && data !== 'data: [DONE]') JSON.parse(data.slice(6));
    }
    const used = process.cpuUsage(start);
    if (r >= 3) samples.push((used.user + used.system) / deltas);
  }
  return median(samples);
}

/**
 * CPU per streamed delta of each native provider, through its vendor's real client reading an
 * in-memory response (a fake `fetch`): OpenAI Chat, OpenAI Responses, Anthropic, and an AI SDK
 * model (`@ai-sdk/openai-compatible` over the Chat wire format). Each response streams 50 text
 * deltas and `calls` calls of 4 argument deltas; the floor splits the same body and parses each
 * event's JSON.
 */
export async function measureProviderDeltas(lib: AnyLib, options: ProviderDeltasOptions): Promise<string> {
  const body = bodies(options.calls);
  const rows: [string, Lib.ModelProvider, string][] = [
    ['openAIChatProvider', lib.openAIChatProvider(new OpenAI({ apiKey: 'bench', baseURL: 'http://bench.invalid/v1', maxRetries: 0, fetch: serving(body.chat) })), body.chat],
    [
      'openAIResponsesProvider',
      lib.openAIResponsesProvider(new OpenAI({ apiKey: 'bench', baseURL: 'http://bench.invalid/v1', maxRetries: 0, fetch: serving(body.responses) })),
      body.responses,
    ],
    ['anthropicProvider', lib.anthropicProvider(new Anthropic({ apiKey: 'bench', baseURL: 'http://bench.invalid', maxRetries: 0, fetch: serving(body.anthropic) })), body.anthropic],
  ];
  const aiSdk = lib.aiSdkProvider as ((model: unknown) => Lib.ModelProvider) | undefined;
  if (typeof aiSdk === 'function') {
    const model = createOpenAICompatible({ name: 'bench', baseURL: 'http://bench.invalid/v1', apiKey: 'bench', fetch: serving(body.chat) }).chatModel('bench');
    rows.push(['aiSdkProvider (openai-compatible)', aiSdk(model), body.chat]);
  }
  const lines = [
    `${options.calls} calls × ${FRAGMENTS} argument deltas and ${TEXT_DELTAS} text deltas per response; CPU µs per delta, median of ${options.runs}.`,
    '',
    '| provider | deltas | CPU µs per delta | floor (split + JSON.parse) | ÷ floor |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const [name, provider, sse] of rows) {
    const { us, deltas } = await cpuPerDelta(provider, options.runs, options.calls);
    const floor = floorPerDelta(sse, deltas, options.runs);
    lines.push(`| ${name} | ${deltas} | ${fmt(us)} | ${fmt(floor)} | ${fmt(us / floor)}× |`);
  }
  return lines.join('\n');
}
