import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { type OtlpReceiver, spansOf, startOtlpReceiver } from '../fixtures/otlp-receiver.js';

const OTLP_KIND_INTERNAL = 1;
const OTLP_KIND_CLIENT = 3;

let receiver: OtlpReceiver;
beforeAll(async () => {
  process.env.OTEL_METRICS_EXPORTER = 'none';
  process.env.OTEL_LOGS_EXPORTER = 'none';
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

describe('spans reach an OTLP/HTTP collector through @opentelemetry/sdk-node', () => {
  it('a turn traced with the NodeSDK tracer arrives at POST /v1/traces with its span tree', async () => {
    const sdk = new NodeSDK({
      serviceName: 'rx-tool-loop-test',
      traceExporter: new OTLPTraceExporter({ url: receiver.tracesUrl }),
      instrumentations: [],
      autoDetectResources: false,
    });
    sdk.start();
    const calc = defineTool({ name: 'calculator', description: 'c', parameters: z.object({ expression: z.string() }), execute: () => '42' });
    const agent = createAgent({
      name: 'helper',
      provider: scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'calculator', arguments: { expression: '6*7' } }] }, { text: '42' }]),
      model: 'gpt-test',
      tools: [calc],
      tracer: trace.getTracer('rx-tool-loop'),
    });
    await agent.complete({ message: 'what is 6*7?' });
    const shutdown = sdk.shutdown(); // flushes the batch span processor
    const first = await receiver.nextTraces();
    await shutdown;

    expect(first.path).toBe('/v1/traces');
    expect(String(first.headers['content-type'])).toContain('application/json');
    const spans = receiver.requests.flatMap(spansOf);
    const byName = new Map(spans.map((s) => [s.name, s]));
    expect([...byName.keys()].sort()).toEqual(['chat gpt-test', 'execute_tool calculator', 'invoke_agent helper']);
    const agentSpan = byName.get('invoke_agent helper')!;
    expect(spans).toHaveLength(4); // two chat spans
    expect(agentSpan).toMatchObject({ kind: OTLP_KIND_INTERNAL, parentSpanId: undefined });
    expect(agentSpan.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'helper' });
    for (const span of spans.filter((s) => s !== agentSpan)) {
      expect(span.traceId).toBe(agentSpan.traceId);
      expect(span.parentSpanId).toBe(agentSpan.spanId);
    }
    expect(spans.filter((s) => s.name === 'chat gpt-test').map((s) => s.kind)).toEqual([OTLP_KIND_CLIENT, OTLP_KIND_CLIENT]);
    expect(byName.get('execute_tool calculator')).toMatchObject({
      kind: OTLP_KIND_INTERNAL,
      attributes: { 'gen_ai.tool.name': 'calculator', 'gen_ai.tool.call.id': 'call-1', 'gen_ai.tool.type': 'function', 'rtl.tool.outcome': 'executed' },
    });
  });
});
