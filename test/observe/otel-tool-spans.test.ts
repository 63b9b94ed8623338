import { context, ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { defer, of } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, nonInteractiveApproval, type ModelProvider, type TurnEvent } from '../../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../../src/testing/index.js';
import { AlsContextManager } from '../fixtures/als-context-manager.js';

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(() => provider.shutdown());

async function finished(): Promise<ReadableSpan[]> {
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}
const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const parentName = (spans: ReadableSpan[], span: ReadableSpan) => spans.find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId)?.name;

describe('execute_tool spans exist only for calls that execute; a slot that never ran says so on invoke_agent', () => {
  it('a denied call and an unknown tool get no execute_tool span, only an rtl.tool.not_executed event with their outcome', async () => {
    const agent = createAgent({
      name: 'a',
      provider: scriptedModel([
        {
          toolCalls: [
            { id: 'c-ok', name: 'ok', arguments: {} },
            { id: 'c-del', name: 'file_delete', arguments: { path: 'a.txt' } },
            { id: 'c-no', name: 'nope', arguments: {} },
          ],
        },
        { text: 'done' },
      ]),
      model: 'm',
      tools: [fakeTool('ok', 'fine'), fakeTool('file_delete', 'gone')],
      approval: new ApprovalManager({ autoApprove: ['ok'] }, nonInteractiveApproval()),
      tracer: provider.getTracer('t'),
    });
    await agent.complete({ message: 'go' });
    const spans = await finished();
    expect(spans.filter((s) => s.name.startsWith('execute_tool')).map((s) => s.name)).toEqual(['execute_tool ok']);
    const [turn] = named(spans, 'invoke_agent a');
    expect(turn.events.filter((e) => e.name === 'rtl.tool.not_executed').map((e) => e.attributes)).toEqual([
      { 'gen_ai.tool.name': 'file_delete', 'gen_ai.tool.call.id': 'c-del', 'rtl.iteration': 1, 'rtl.tool.slot': 1, 'rtl.tool.outcome': 'denied', 'error.type': 'denied' },
      { 'gen_ai.tool.name': 'nope', 'gen_ai.tool.call.id': 'c-no', 'rtl.iteration': 1, 'rtl.tool.slot': 2, 'rtl.tool.outcome': 'unknown', 'error.type': 'unknown' },
    ]);
  });
});

describe('an interrupted slot reports the time it ran, and its span agrees (virtual time)', () => {
  it('cancelled 7 frames after the tool started: durationMs 7 and a 7 ms execute_tool span', async () => {
    const events: TurnEvent[] = [];
    createTestScheduler(expect).run(({ cold }) => {
      const ac = new AbortController();
      const agent = createAgent({
        provider: scriptedModel([{ toolCalls: [{ id: 'c1', name: 'slow', arguments: {} }] }, { text: 'x' }]),
        model: 'm',
        tools: [fakeTool('slow', cold('----------(r|)', { r: 'late' }))],
        tracer: provider.getTracer('t'),
      });
      cold('--a').subscribe(() => agent.run({ message: 'go', signal: ac.signal }).subscribe((e) => events.push(e)));
      cold('---------a').subscribe(() => ac.abort());
    });
    const result = events.find((e) => e.type === 'tool-result')!;
    expect(result).toMatchObject({ outcome: 'interrupted', durationMs: 7 });
    const [span] = named(await finished(), 'execute_tool slow');
    expect(span.attributes['error.type']).toBe('interrupted');
    expect(span.duration[0] * 1e3 + span.duration[1] / 1e6).toBeCloseTo(7, 6);
  });
});

describe('error.type tells a timeout from a thrown error from a denial; exceptions are span events', () => {
  it('a timeout is tool_timeout, a thrown TypeError is TypeError (each with an exception event), a reported failure is failed', async () => {
    createTestScheduler(expect).run(({ cold }) => {
      const agent = createAgent({
        provider: scriptedModel([
          { toolCalls: [{ id: 't', name: 'slow', arguments: {} }, { id: 'e', name: 'broken', arguments: {} }, { id: 'f', name: 'full', arguments: {} }] },
          { text: 'x' },
        ]),
        model: 'm',
        tools: [
          fakeTool('slow', cold('-----(r|)', { r: 'late' }), { timeoutMs: 2 }),
          fakeTool('broken', () => {
            throw new TypeError('x is not a function');
          }),
          fakeTool('full', { success: false, output: 'disk full' }),
        ],
        knobs: { parallelTools: true },
        tracer: provider.getTracer('t'),
      });
      agent.run({ message: 'go' }).subscribe();
    });
    const spans = await finished();
    const row = (name: string) => {
      const [s] = named(spans, `execute_tool ${name}`);
      return [s.attributes['error.type'], s.status.code, s.events.map((e) => [e.name, e.attributes?.['exception.type']])];
    };
    expect(row('slow')).toEqual(['tool_timeout', SpanStatusCode.ERROR, [['exception', 'tool_timeout']]]);
    expect(row('broken')).toEqual(['TypeError', SpanStatusCode.ERROR, [['exception', 'TypeError']]]);
    expect(row('full')).toEqual(['failed', SpanStatusCode.ERROR, []]);
  });

  it("the turn's error is recorded as an exception event on invoke_agent and chat, its message scrubbed", async () => {
    const agent = createAgent({ name: 'a', provider: scriptedModel([]), model: 'm', tools: [], tracer: provider.getTracer('t') });
    await expect(agent.complete({ message: 'go' })).rejects.toThrow();
    for (const span of await finished()) {
      expect(span.events.map((e) => [e.name, e.attributes?.['exception.type']])).toEqual([['exception', 'provider_error']]);
    }
  });
});

describe("tool code runs inside its execute_tool span's context", () => {
  beforeEach(() => {
    context.setGlobalContextManager(new AlsContextManager());
  });
  afterEach(() => {
    context.disable();
  });

  it('spans an async tool and an Observable tool start nest under their execute_tool span; the next request does not', async () => {
    const tracer = provider.getTracer('t');
    const script = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }, { id: 'c2', name: 'feed', arguments: {} }] }, { text: 'done' }]);
    const http: ModelProvider = {
      name: 'wrapped',
      nativeTools: true,
      request: (req, signal) => {
        tracer.startSpan('provider http').end();
        return script.request(req, signal);
      },
    };
    const lookup = fakeTool('lookup', async () => {
      await Promise.resolve();
      const span = tracer.startSpan('db query');
      await Promise.resolve();
      span.end();
      return 'row';
    });
    const feed = fakeTool('feed', () =>
      defer(() => {
        tracer.startSpan('feed fetch').end();
        return of('items');
      }),
    );
    const agent = createAgent({ name: 'a', provider: http, model: 'm', tools: [lookup, feed], tracer });
    await context.with(ROOT_CONTEXT, () => agent.complete({ message: 'go' }));
    const spans = await finished();
    expect(parentName(spans, named(spans, 'db query')[0])).toBe('execute_tool lookup');
    expect(parentName(spans, named(spans, 'feed fetch')[0])).toBe('execute_tool feed');
    expect(named(spans, 'provider http').map((s) => parentName(spans, s))).toEqual([undefined, undefined]);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
