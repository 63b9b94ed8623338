import { EMPTY, lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  defineTool,
  openAIChatProvider,
  outputInstructions,
  textProtocolProvider,
  type ModelProvider,
  type OutputFormat,
  type ProviderRequest,
} from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { startOpenAIServer, type OpenAIServer, type ServerStep } from '../fixtures/openai-server.js';
import { clientFor, eventsOf, userRequest } from './helpers.js';

let server: OpenAIServer | undefined;
const serve = async (script: readonly ServerStep[]) => (server = await startOpenAIServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const format: OutputFormat = {
  name: 'city_report',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

describe('openAIChatProvider sends a request output as response_format json_schema', () => {
  it.each([true, false])('stream: %s', async (stream) => {
    const s = await serve([{ kind: 'reply', text: '{"city": "Oslo"}' }]);
    await eventsOf(openAIChatProvider(clientFor(s), { stream }), userRequest({ output: format }));
    expect(s.requests[0].body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'city_report', schema: format.schema, strict: false },
    });
  });

  it('a request without output sends no response_format, and the request output wins over params', async () => {
    const s = await serve([{ kind: 'reply', text: 'hi' }, { kind: 'reply', text: '{}' }]);
    const provider = openAIChatProvider(clientFor(s), { params: { response_format: { type: 'json_object' } } });
    await eventsOf(openAIChatProvider(clientFor(s)), userRequest());
    expect(s.requests[0].body).not.toHaveProperty('response_format');
    await eventsOf(provider, userRequest({ output: format }));
    expect(s.requests[1].body.response_format.type).toBe('json_schema');
  });

  it('through an agent: tools and response_format in each request, the answer validated into done.object', async () => {
    const lookup = defineTool({ name: 'lookup', description: 'Looks up', parameters: z.object({ city: z.string() }), execute: () => '21' });
    const s = await serve([
      { kind: 'reply', toolCalls: [{ id: 'c1', name: 'lookup', arguments: ['{"city":', ' "Oslo"}'] }] },
      { kind: 'reply', text: ['{"city": "Oslo", ', '"celsius": 21}'] },
    ]);
    const agent = createAgent({ provider: openAIChatProvider(clientFor(s)), model: 'fixture-model', tools: [lookup] });
    const schema = z.object({ city: z.string(), celsius: z.number() }).meta({ title: 'weather' });
    const done = await agent.complete({ message: 'weather in Oslo?', output: schema });
    expect(done.object).toEqual({ city: 'Oslo', celsius: 21 });
    const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input' });
    for (const request of s.requests) {
      expect(request.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['lookup']);
      expect(request.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'weather', schema: json, strict: false } });
    }
  });
});

describe('textProtocolProvider asks for the output in text, in an answer-format section', () => {
  const innerRecording = (): { inner: ModelProvider; seen: ProviderRequest[] } => {
    const seen: ProviderRequest[] = [];
    return { seen, inner: { name: 'inner', nativeTools: true, request: (req) => (seen.push(req), EMPTY) } };
  };
  const send = (provider: ModelProvider, req: ProviderRequest) => lastValueFrom(provider.request(req, new AbortController().signal).pipe(toArray()));

  it('the section is the exact instructions with the JSON Schema', () => {
    expect(outputInstructions(format)).toBe(
      '# Answer format\n' +
        'When you give your final answer (not a tool call), write only a JSON value that matches the JSON Schema below: no other text before or after it.\n' +
        'Schema (city_report): {"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}',
    );
  });

  it('goes after the leading system messages (the protocol section), and the inner provider gets no output', async () => {
    const { inner, seen } = innerRecording();
    const messages = [
      { role: 'system' as const, content: 'You are terse.' },
      { role: 'system' as const, content: '# Tools\n…' },
      { role: 'user' as const, content: 'weather?' },
    ];
    await send(textProtocolProvider(inner), { model: 'm', messages, output: format });
    expect(seen[0]).toEqual({
      model: 'm',
      messages: [messages[0], messages[1], { role: 'system', content: outputInstructions(format) }, messages[2]],
    });
    expect(seen[0]).not.toHaveProperty('output');
  });

  it('is sent in strict mode too (strict is about tool calls), and first when there is no system message', async () => {
    const { inner, seen } = innerRecording();
    await send(textProtocolProvider(inner, { strict: true }), userRequest({ output: format }));
    expect(seen[0].messages).toEqual([{ role: 'system', content: outputInstructions(format) }, { role: 'user', content: 'hi' }]);
  });

  it('through an agent: protocol section, then the answer format, then the history; the answer becomes done.object', async () => {
    const lookup = defineTool({ name: 'lookup', description: 'Looks up', parameters: z.object({ city: z.string() }), execute: () => '21' });
    const inner = scriptedModel(
      [{ text: '<tool_call>{"name": "lookup", "arguments": {"city": "Oslo"}}</tool_call>' }, { text: '```json\n{"celsius": 21}\n```' }],
      { nativeTools: false },
    );
    const agent = createAgent({ provider: textProtocolProvider(inner), model: 'm', tools: [lookup], instructions: 'Be brief.' });
    const done = await agent.complete({ message: 'weather?', output: z.object({ celsius: z.number() }) });
    expect(done.object).toEqual({ celsius: 21 });
    const first = inner.requests[0];
    expect(first.messages.map((m) => (m.role === 'system' ? m.content.split('\n')[0] : m.role))).toEqual(['Be brief.', '# Tools', '# Answer format', 'user']);
    expect(first.messages[2].content).toContain('Schema (output): {"type":"object","properties":{"celsius":{"type":"number"}}');
    expect(inner.requests.every((r) => r.output === undefined && r.tools === undefined)).toBe(true);
  });
});
