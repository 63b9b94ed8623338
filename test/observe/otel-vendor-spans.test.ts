import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anthropicProvider, createAgent, openAIResponsesProvider, type ModelProvider } from '../../src/index.js';
import { startAnthropicServer } from '../fixtures/anthropic-server.js';
import { startResponsesServer } from '../fixtures/responses-server.js';
import { anthropicFor } from '../provider/anthropic-helpers.js';
import { responsesClient } from '../provider/responses-helpers.js';

let exporter: InMemorySpanExporter;
let tracing: BasicTracerProvider;
const closers: (() => Promise<void>)[] = [];
beforeEach(() => {
  exporter = new InMemorySpanExporter();
  tracing = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  await tracing.shutdown();
  for (const close of closers.splice(0)) await close();
});

/** The attributes of the turn's `chat` span and of its `invoke_agent` span, after one turn on `provider`. */
async function spansOf(provider: ModelProvider): Promise<{ chat: Record<string, unknown>; turn: Record<string, unknown> }> {
  await createAgent({ provider, model: 'fixture-model', tools: [], tracer: tracing.getTracer('t') }).complete({ message: 'go' });
  await tracing.forceFlush();
  const spans = exporter.getFinishedSpans();
  return {
    chat: spans.find((s) => s.name.startsWith('chat '))!.attributes,
    turn: spans.find((s) => s.name.startsWith('invoke_agent'))!.attributes,
  };
}

describe('each vendor provider names itself in the GenAI spans, at the server it talks to', () => {
  it('Anthropic: gen_ai.provider.name anthropic, the message id and model, the stop reason, token usage', async () => {
    const server = await startAnthropicServer([{ kind: 'reply', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 7, output_tokens: 2 } }]);
    closers.push(() => server.close());
    const { chat, turn } = await spansOf(anthropicProvider(anthropicFor(server)));
    expect(chat).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'fixture-model',
      'gen_ai.response.id': expect.stringMatching(/^msg_/),
      'gen_ai.response.finish_reasons': ['end_turn'],
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 2,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.baseURL).port),
    });
    expect(turn['gen_ai.provider.name']).toBe('anthropic');
  });

  it('OpenAI Responses: gen_ai.provider.name openai, the response id and model, the status as finish reason', async () => {
    const server = await startResponsesServer([{ kind: 'reply', id: 'resp_span', text: 'hi', usage: { input_tokens: 5, output_tokens: 1 } }]);
    closers.push(() => server.close());
    const { chat, turn } = await spansOf(openAIResponsesProvider(responsesClient(server)));
    expect(chat).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.response.id': 'resp_span',
      'gen_ai.response.finish_reasons': ['completed'],
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 1,
      'server.address': '127.0.0.1',
    });
    expect(turn['gen_ai.provider.name']).toBe('openai');
  });
});
