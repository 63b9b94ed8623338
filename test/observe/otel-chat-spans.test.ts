import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { of } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, openAIChatProvider, type ModelProvider, type ProviderEvent } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { startOpenAIServer, type OpenAIServer } from '../fixtures/openai-server.js';
import { clientFor } from '../provider/helpers.js';

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
let server: OpenAIServer | undefined;
beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  await provider.shutdown();
  await server?.close();
  server = undefined;
});

async function finished(): Promise<ReadableSpan[]> {
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}
const chats = (spans: ReadableSpan[]) => spans.filter((s) => s.name.startsWith('chat '));

describe('chat spans name and tag the model each request went to', () => {
  it('after a tool switches the model, the next chat span is `chat {new model}` with that gen_ai.request.model', async () => {
    const escalate = fakeTool('escalate', (_args, ctx) => {
      ctx.switchModel('big-model');
      return 'switched';
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'escalate', arguments: {} }] }, { text: 'done' }]);
    const agent = createAgent({ provider: model, model: 'small-model', tools: [escalate], tracer: provider.getTracer('t') });
    await agent.complete({ message: 'go' });
    expect(model.requests.map((r) => r.model)).toEqual(['small-model', 'big-model']);
    expect(chats(await finished()).map((s) => [s.name, s.attributes['gen_ai.request.model']])).toEqual([
      ['chat small-model', 'small-model'],
      ['chat big-model', 'big-model'],
    ]);
  });
});

describe('chat spans carry the response, the temperature, the server and the conversation', () => {
  it("a provider's response id, model and finish reason, its conventions name and server, the agent's temperature", async () => {
    const inner = scriptedModel([
      of<ProviderEvent[]>({ type: 'text-delta', text: 'hi' }, { type: 'finish', reason: 'stop', responseId: 'resp-1', responseModel: 'm-2025-01-01' }),
    ]);
    const reporting: ModelProvider = {
      name: 'my-gateway',
      telemetryName: 'openai',
      server: { address: 'llm.internal', port: 8443 },
      nativeTools: true,
      request: (req, signal) => inner.request(req, signal),
    };
    const agent = createAgent({ name: 'a', provider: reporting, model: 'm', temperature: 0.3, tools: [], tracer: provider.getTracer('t') });
    await agent.complete({ message: 'go', conversationId: 'conv-7' });
    const spans = await finished();
    expect(chats(spans)[0].attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'm',
      'gen_ai.request.temperature': 0.3,
      'gen_ai.response.model': 'm-2025-01-01',
      'gen_ai.response.id': 'resp-1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.conversation.id': 'conv-7',
      'server.address': 'llm.internal',
      'server.port': 8443,
    });
    const turn = spans.find((s) => s.name === 'invoke_agent a')!;
    expect(turn.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.conversation.id': 'conv-7' });
  });

  it('TurnInput.conversationId is gen_ai.conversation.id on every turn of the conversation; the turn id is rtl.turn.id', async () => {
    const agent = createAgent({ name: 'a', provider: scriptedModel([{ text: 'one' }, { text: 'two' }]), model: 'm', tools: [], tracer: provider.getTracer('t') });
    const first = await agent.complete({ message: 'go', conversationId: 'conv-9' });
    await agent.complete({ message: 'again', history: first.history, conversationId: 'conv-9' });
    const turns = (await finished()).filter((s) => s.name === 'invoke_agent a');
    expect(turns.map((s) => s.attributes['gen_ai.conversation.id'])).toEqual(['conv-9', 'conv-9']);
    expect(new Set(turns.map((s) => s.attributes['rtl.turn.id'])).size).toBe(2);
  });

  it('the OpenAI provider is gen_ai.provider.name openai at its base URL, with the completion id, model and finish reason', async () => {
    server = await startOpenAIServer([{ kind: 'reply', text: 'hello' }]);
    const openai = openAIChatProvider(clientFor(server));
    expect(openai.name).toBe('openai-chat');
    const agent = createAgent({ provider: openai, model: 'fixture-model', tools: [], tracer: provider.getTracer('t') });
    await agent.complete({ message: 'go' });
    const port = Number(new URL(server.baseURL).port);
    expect(chats(await finished())[0].attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.response.id': 'chatcmpl-fixture',
      'gen_ai.response.model': 'fixture-model',
      'gen_ai.response.finish_reasons': ['stop'],
      'server.address': '127.0.0.1',
      'server.port': port,
    });
  });
});
