import OpenAI from 'openai';
import { lastValueFrom, toArray } from 'rxjs';
import type * as Lib from '../../src/index.js';
import { fmt, median } from './measure.js';

type AnyLib = typeof Lib & Record<string, unknown>;
type ProviderFactory = (client: OpenAI, opts?: unknown) => Lib.ModelProvider;
type TextParser = (text: string, knownTools: string[]) => readonly unknown[];

export interface StreamingOptions {
  readonly runs: number;
  readonly calls: number;
  readonly textBytes: number;
}

/** One OpenAI chat-completions SSE body carrying `calls` streamed tool calls (3 chunks each). */
export function sseBody(calls: number): string {
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'bench',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  let body = chunk({ role: 'assistant', content: null });
  for (let k = 0; k < calls; k++) {
    body += chunk({ tool_calls: [{ index: k, id: `call_${k}`, type: 'function', function: { name: 'noop', arguments: '' } }] });
    body += chunk({ tool_calls: [{ index: k, function: { arguments: '{"i":' } }] });
    body += chunk({ tool_calls: [{ index: k, function: { arguments: `${k}}` } }] });
  }
  body += chunk({}, 'tool_calls');
  return `${body}data: [DONE]\n\n`;
}

/** The body as a network would deliver it: 16 KB chunks. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 16 * 1024));
      offset += 16 * 1024;
    },
  });
}

/** The floor of SSE assembly: split the events, JSON.parse each, concatenate arguments by index. */
function sseFloor(body: string): number {
  const args: string[] = [];
  for (const event of body.split('\n\n')) {
    if (!event.startsWith('data: ') || event === 'data: [DONE]') continue;
    const chunk = JSON.parse(event.slice(6)) as { choices: { delta: { tool_calls?: { index: number; function?: { arguments?: string } }[] } }[] };
    for (const call of chunk.choices[0].delta.tool_calls ?? []) args[call.index] = (args[call.index] ?? '') + (call.function?.arguments ?? '');
  }
  return args.length;
}

/** About `bytes` of model text in the text tool protocol, and the same calls as one JSON array. */
export function textProtocolPayload(bytes: number): { text: string; json: string; calls: number } {
  const parts: string[] = [];
  const bodies: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes; k++) {
    const body = JSON.stringify({ name: 'noop', arguments: { i: k, note: `step ${k} of the plan, nothing to see here` } });
    const block = `I will call the tool now.\n<tool_call>${body}</tool_call>\n`;
    parts.push(block);
    bodies.push(body);
    size += block.length;
  }
  return { text: parts.join(''), json: `[${bodies.join(',')}]`, calls: bodies.length };
}

async function timeMedian(runs: number, body: () => unknown | Promise<unknown>): Promise<number> {
  for (let w = 0; w < 3; w++) await body();
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    await body();
    times.push(performance.now() - start);
  }
  return median(times);
}

const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

/**
 * Streaming: tool calls assembled from an OpenAI SSE stream by our OpenAI provider (through the
 * openai SDK with a fake fetch) against a bare JSON.parse of every event; and the text-protocol
 * parser on about 1 MB of model text against JSON.parse of the same calls as one JSON array.
 * Parts whose library code has not landed yet are reported as pending.
 */
export async function measureStreaming(lib: AnyLib, options: StreamingOptions): Promise<string> {
  const lines = ['| workload | system | median ms | MB/s | calls/s | ÷ JSON.parse floor |', '|---|---|---:|---:|---:|---:|'];
  const body = sseBody(options.calls);
  const bytes = new TextEncoder().encode(body);
  const floorMs = await timeMedian(options.runs, () => {
    if (sseFloor(body) !== options.calls) throw new Error('sse floor: wrong call count');
  });
  const sseName = `SSE, ${options.calls} tool calls (${(bytes.length / 1e6).toFixed(2)} MB)`;
  const factory = lib.openAIChatProvider as ProviderFactory | undefined;
  if (typeof factory === 'function') {
    const client = new OpenAI({
      apiKey: 'bench',
      baseURL: 'http://bench.invalid/v1',
      maxRetries: 0,
      fetch: async () => new Response(streamOf(bytes), { headers: { 'content-type': 'text/event-stream' } }),
    });
    const provider = factory(client);
    const req = { model: 'bench', messages: [{ role: 'user' as const, content: 'go' }] };
    const ms = await timeMedian(options.runs, async () => {
      const events = await lastValueFrom(provider.request(req, new AbortController().signal).pipe(toArray()));
      const calls = events.filter((e) => e.type === 'tool-call').length;
      if (calls !== options.calls) throw new Error(`openAIChatProvider assembled ${calls} of ${options.calls} calls`);
    });
    lines.push(row(sseName, 'ours: openAIChatProvider', ms, bytes.length, options.calls, ms / floorMs));
  } else {
    lines.push(`| ${sseName} | ours: openAIChatProvider | pending (not in the library yet) | | | |`);
  }
  lines.push(row(sseName, 'floor: split + JSON.parse per event', floorMs, bytes.length, options.calls, 1));

  const payload = textProtocolPayload(options.textBytes);
  const textName = `text protocol, ${(payload.text.length / 1e6).toFixed(2)} MB, ${payload.calls} calls`;
  const jsonMs = await timeMedian(options.runs, () => JSON.parse(payload.json));
  const parse = lib.parseTextToolCalls as TextParser | undefined;
  if (typeof parse === 'function') {
    const ms = await timeMedian(options.runs, () => {
      const found = parse(payload.text, ['noop']).length;
      if (found !== payload.calls) throw new Error(`parseTextToolCalls found ${found} of ${payload.calls} calls`);
    });
    // Normalized per byte: the JSON array is a little smaller than the text around it.
    const ratio = mbps(payload.json.length, jsonMs) / mbps(payload.text.length, ms);
    lines.push(row(textName, 'ours: parseTextToolCalls', ms, payload.text.length, payload.calls, ratio));
  } else {
    lines.push(`| ${textName} | ours: parseTextToolCalls | pending (not in the library yet) | | | |`);
  }
  lines.push(row(`same calls as one JSON array (${(payload.json.length / 1e6).toFixed(2)} MB)`, 'JSON.parse', jsonMs, payload.json.length, payload.calls, 1));
  return lines.join('\n');
}

function row(workload: string, system: string, ms: number, bytes: number, calls: number, ratio: number): string {
  return `| ${workload} | ${system} | ${fmt(ms)} | ${fmt(mbps(bytes, ms))} | ${fmt(calls / (ms / 1000), 0)} | ${fmt(ratio)}× |`;
}
