import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, stepCountIs } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';

const exporter = new InMemorySpanExporter();
const tracing = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
afterEach(() => exporter.reset());

describe('spans follow loop control', () => {
  it("prepareIteration's model names each chat span; a stop is the turn's reason on invoke_agent", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 't', arguments: {} }] }, { toolCalls: [{ name: 't', arguments: {} }] }, { text: 'never' }]);
    const agent = createAgent({
      provider: model,
      model: 'small-model',
      tools: [fakeTool('t', 'ok')],
      tracer: tracing.getTracer('t'),
      prepareIteration: (state) => ({ model: state.iteration === 1 ? 'small-model' : 'big-model' }),
      stopWhen: stepCountIs(2),
    });
    expect((await agent.complete({ message: 'go' })).reason).toBe('stopped');
    await tracing.forceFlush();
    const spans = exporter.getFinishedSpans();
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    expect(chats.map((s) => [s.name, s.attributes['gen_ai.request.model']])).toEqual([
      ['chat small-model', 'small-model'],
      ['chat big-model', 'big-model'],
    ]);
    const turn = spans.find((s) => s.name.startsWith('invoke_agent'));
    expect(turn?.attributes['rtl.turn.reason']).toBe('stopped');
  });
});
