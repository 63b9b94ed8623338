import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { lastValueFrom, NEVER, Subject, take, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, ProviderError, traceTurn, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
/** `start {name}` / `end {name}` in the order the SDK saw them (no clock involved). */
let lifecycle: string[];
/** Span ids in start order. */
let startOrder: string[];

const recorder: SpanProcessor = {
  onStart: (span) => {
    lifecycle.push(`start ${span.name}`);
    startOrder.push(span.spanContext().spanId);
  },
  onEnd: (span) => void lifecycle.push(`end ${span.name}`),
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  lifecycle = [];
  startOrder = [];
  provider = new BasicTracerProvider({ spanProcessors: [recorder, new SimpleSpanProcessor(exporter)] });
});
afterEach(() => provider.shutdown());

async function finishedSpans(): Promise<ReadableSpan[]> {
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

/** Each span as name, kind, parent name, attributes and status, in the order they started. */
function tree(spans: ReadableSpan[]) {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const rank = (s: ReadableSpan) => startOrder.indexOf(s.spanContext().spanId);
  return [...spans]
    .sort((a, b) => rank(a) - rank(b))
    .map((s) => ({
      name: s.name,
      kind: s.kind,
      parent: s.parentSpanContext ? (byId.get(s.parentSpanContext.spanId)?.name ?? 'external') : undefined,
      attributes: { ...s.attributes },
      status: s.status,
    }));
}

/** Three tools that each wait until all three have started, then finish in the order news, weather, stocks. */
function parallelTools() {
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  const release = () => {
    for (const name of ['news', 'weather', 'stocks']) gates.get(name)!();
  };
  const tool = (name: string, result: () => string) =>
    defineTool({
      name,
      description: name,
      parameters: z.object({ q: z.string() }),
      execute: () =>
        new Promise<string>((resolve, reject) => {
          gates.set(name, () => {
            try {
              resolve(result());
            } catch (err) {
              reject(err);
            }
          });
          started.push(name);
          if (started.length === 3) queueMicrotask(release);
        }),
    });
  return {
    started,
    tools: [
      tool('weather', () => 'rain, 12°C'),
      tool('stocks', () => {
        throw new Error('market feed down');
      }),
      tool('news', () => 'nothing new'),
    ],
  };
}

const parallelScript = () =>
  scriptedModel([
    {
      toolCalls: [
        { id: 'call-w', name: 'weather', arguments: { q: 'Oslo' } },
        { id: 'call-s', name: 'stocks', arguments: { q: 'ACME' } },
        { id: 'call-n', name: 'news', arguments: { q: 'today' } },
      ],
      usage: { inputTokens: 100, outputTokens: 20 },
    },
    { text: 'Rain in Oslo; no stock data.', usage: { inputTokens: 150, outputTokens: 12 } },
  ]);

describe('a traced turn: invoke_agent parent of chat and execute_tool spans (GenAI semantic conventions)', () => {
  it('the span tree of a parallel turn with three tools, one failing, is exact', async () => {
    const { tools, started } = parallelTools();
    const agent = createAgent({
      name: 'helper',
      provider: parallelScript(),
      model: 'gpt-test',
      tools,
      knobs: { parallelTools: true },
      tracer: provider.getTracer('rx-tool-loop-test'),
    });
    const out = await agent.complete({ message: 'weather, stocks and news', ingress: { channel: 'web', turnId: 'turn-1' } });
    expect(out.text).toBe('Rain in Oslo; no stock data.');
    expect(started).toEqual(['weather', 'stocks', 'news']);

    const spans = await finishedSpans();
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    const tool = (name: string, id: string, slot: number, outcome: string) => ({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': id,
      'gen_ai.tool.type': 'function',
      'rtl.iteration': 1,
      'rtl.tool.slot': slot,
      'rtl.tool.outcome': outcome,
    });
    const chat = (iteration: number, input: number, output: number) => ({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.provider.name': 'scripted',
      'rtl.iteration': iteration,
      'gen_ai.usage.input_tokens': input,
      'gen_ai.usage.output_tokens': output,
    });
    const unset = { code: SpanStatusCode.UNSET };
    expect(tree(spans)).toEqual([
      {
        name: 'invoke_agent helper',
        kind: SpanKind.INTERNAL,
        parent: undefined,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': 'helper',
          'gen_ai.request.model': 'gpt-test',
          'gen_ai.provider.name': 'scripted',
          'rtl.turn.id': 'turn-1',
          'gen_ai.usage.input_tokens': 250,
          'gen_ai.usage.output_tokens': 32,
          'rtl.turn.reason': 'final',
          'rtl.turn.iterations': 2,
        },
        status: unset,
      },
      { name: 'chat gpt-test', kind: SpanKind.CLIENT, parent: 'invoke_agent helper', attributes: chat(1, 100, 20), status: unset },
      { name: 'execute_tool weather', kind: SpanKind.INTERNAL, parent: 'invoke_agent helper', attributes: tool('weather', 'call-w', 0, 'executed'), status: unset },
      {
        name: 'execute_tool stocks',
        kind: SpanKind.INTERNAL,
        parent: 'invoke_agent helper',
        attributes: { ...tool('stocks', 'call-s', 1, 'failed'), 'error.type': 'Error' },
        status: { code: SpanStatusCode.ERROR, message: 'Error executing stocks: market feed down' },
      },
      { name: 'execute_tool news', kind: SpanKind.INTERNAL, parent: 'invoke_agent helper', attributes: tool('news', 'call-n', 2, 'executed'), status: unset },
      { name: 'chat gpt-test', kind: SpanKind.CLIENT, parent: 'invoke_agent helper', attributes: chat(2, 150, 12), status: unset },
    ]);
  });

  it('the three tool spans overlap: all three start before any ends, and they end in completion order', async () => {
    const { tools } = parallelTools();
    const agent = createAgent({ provider: parallelScript(), model: 'm', tools, knobs: { parallelTools: true }, tracer: provider.getTracer('t') });
    await agent.complete({ message: 'go' });
    expect(lifecycle.filter((l) => l.includes('execute_tool'))).toEqual([
      'start execute_tool weather',
      'start execute_tool stocks',
      'start execute_tool news',
      'end execute_tool news',
      'end execute_tool weather',
      'end execute_tool stocks',
    ]);
  });
});

describe('content capture is opt-in, and then scrubbed', () => {
  const echo = defineTool({
    name: 'echo',
    description: 'echo',
    parameters: z.object({ text: z.string(), api_key: z.string() }),
    execute: ({ text }) => `${text} token=abcdefgh12345678`,
  });
  const script = () => scriptedModel([{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi', api_key: 'zyxwvuts98765432' } }] }, { text: 'ok' }]);

  it('without opting in, no arguments or results are recorded', async () => {
    const agent = createAgent({ provider: script(), model: 'm', tools: [echo], tracer: provider.getTracer('t') });
    await agent.complete({ message: 'go' });
    const span = (await finishedSpans()).find((s) => s.name === 'execute_tool echo')!;
    expect(span.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(span.attributes['gen_ai.tool.call.result']).toBeUndefined();
  });

  it('with captureContent, arguments and results are recorded scrubbed', async () => {
    const agent = createAgent({ provider: script(), model: 'm', tools: [echo], tracer: provider.getTracer('t'), telemetry: { captureContent: true } });
    await agent.complete({ message: 'go' });
    const span = (await finishedSpans()).find((s) => s.name === 'execute_tool echo')!;
    expect(span.attributes['gen_ai.tool.call.arguments']).toBe('{"text":"hi","api_key":"[REDACTED]"}');
    expect(span.attributes['gen_ai.tool.call.result']).toBe('hi token=[REDACTED]');
  });
});

describe('failures and early ends close every span', () => {
  it('a provider failure marks chat and invoke_agent with error.type = the ToolLoopError code', async () => {
    const model = scriptedModel([]);
    const agent = createAgent({ name: 'a', provider: model, model: 'm', tools: [], tracer: provider.getTracer('t') });
    await expect(agent.complete({ message: 'go' })).rejects.toBeInstanceOf(ProviderError);
    const spans = tree(await finishedSpans());
    expect(spans.map((s) => [s.name, s.attributes['error.type'], s.status.code])).toEqual([
      ['invoke_agent a', 'provider_error', SpanStatusCode.ERROR],
      ['chat m', 'provider_error', SpanStatusCode.ERROR],
    ]);
  });

  it('unsubscribing mid-tool ends the open tool span as interrupted and the turn span as unsubscribed', async () => {
    const hang = defineTool({ name: 'hang', description: 'h', parameters: z.object({}), execute: () => NEVER });
    const agent = createAgent({ provider: scriptedModel([{ toolCalls: [{ name: 'hang', arguments: {} }] }]), model: 'm', tools: [hang], tracer: provider.getTracer('t') });
    const seen = new Subject<TurnEvent>();
    const sub = agent.run({ message: 'go' }).subscribe(seen);
    sub.unsubscribe();
    const spans = tree(await finishedSpans());
    expect(spans.map((s) => [s.name, s.attributes['error.type'] ?? s.attributes['rtl.turn.reason']])).toEqual([
      ['invoke_agent agent', 'unsubscribed'],
      ['chat m', undefined],
      ['execute_tool hang', 'interrupted'],
    ]);
  });
});

describe('parent contexts are passed explicitly', () => {
  it('traceTurn nests invoke_agent under the given parent context, whatever context is active', async () => {
    const tracer = provider.getTracer('t');
    const outer = tracer.startSpan('http request', {}, ROOT_CONTEXT);
    const events: TurnEvent[] = [
      { type: 'iteration', iteration: 1, model: 'm' },
      { type: 'tool-call', iteration: 1, slot: 0, id: 'c1', name: 'x', args: {}, executes: true },
      { type: 'tool-result', iteration: 1, slot: 0, id: 'c1', name: 'x', output: 'ok', success: true, outcome: 'executed', durationMs: 1 },
      { type: 'done', text: 'ok', reason: 'final', history: [], iterations: 1, usage: { inputTokens: 0, outputTokens: 0 } },
    ];
    const source = new Subject<TurnEvent>();
    const out = lastValueFrom(source.pipe(traceTurn(tracer, { agent: 'a', model: 'm', parentContext: trace.setSpan(ROOT_CONTEXT, outer) }), take(4), toArray()));
    const unrelated = tracer.startSpan('unrelated', {}, ROOT_CONTEXT);
    context.with(trace.setSpan(ROOT_CONTEXT, unrelated), () => events.forEach((e) => source.next(e)));
    expect(await out).toEqual(events);
    unrelated.end();
    outer.end();
    const spans = tree(await finishedSpans());
    const parentOf = Object.fromEntries(spans.map((s) => [s.name, s.parent]));
    expect(parentOf).toEqual({ 'invoke_agent a': 'http request', 'chat m': 'invoke_agent a', 'execute_tool x': 'invoke_agent a', unrelated: undefined, 'http request': undefined });
  });
});
