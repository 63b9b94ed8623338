import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aiSdkProvider, createAgent } from '../../src/index.js';
import { startOpenAIServer, type OpenAIServer } from '../fixtures/openai-server.js';

let exporter: InMemorySpanExporter;
let tracing: BasicTracerProvider;
let server: OpenAIServer | undefined;
beforeEach(() => {
  exporter = new InMemorySpanExporter();
  tracing = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  await tracing.shutdown();
  await server?.close();
  server = undefined;
});

describe('chat spans of an AI SDK model', () => {
  it('carry the GenAI name of the model’s provider id, the server given, the response id, model, finish reason and usage', async () => {
    server = await startOpenAIServer([{ kind: 'reply', text: 'hello', usage: { prompt_tokens: 11, completion_tokens: 4 } }]);
    const model = createOpenAICompatible({ name: 'deepseek', baseURL: server.baseURL, apiKey: 'k', includeUsage: true }).chatModel('fixture-model');
    const agent = createAgent({ provider: aiSdkProvider(model, { baseURL: server.baseURL }), model: 'fixture-model', tools: [], tracer: tracing.getTracer('t') });
    await agent.complete({ message: 'go' });
    await tracing.forceFlush();
    const chat = exporter.getFinishedSpans().find((s) => s.name === 'chat fixture-model');
    expect(chat?.attributes).toMatchObject({
      'gen_ai.provider.name': 'deepseek',
      'gen_ai.request.model': 'fixture-model',
      'gen_ai.response.id': 'chatcmpl-fixture',
      'gen_ai.response.model': 'fixture-model',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 11,
      'gen_ai.usage.output_tokens': 4,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.baseURL).port),
    });
  });
});
