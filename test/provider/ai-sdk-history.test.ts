import { afterEach, describe, expect, it } from 'vitest';
import { aiSdkProvider, type ChatMessage } from '../../src/index.js';
import { aiSdkPrompt } from '../../src/provider/ai-sdk/ai-sdk-prompt.js';
import { startOpenAIServer, type OpenAIServer } from '../fixtures/openai-server.js';
import { eventsOf, userRequest } from './helpers.js';
import { MODELS } from './ai-sdk-models.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const call = (id: string, name: string, args: string) => ({ id, type: 'function' as const, function: { name, arguments: args } });

/** A finished round: reasoning of two families, text, two calls, a result and a failed slot's result. */
const history: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Oslo and Rome?' },
  {
    role: 'assistant',
    content: 'Checking both.',
    reasoning: [
      { provider: 'ai-sdk', data: { text: 'Two cities, two calls.', providerMetadata: { fixture: { signature: 'sig-1' } } } },
      { provider: 'anthropic', data: { type: 'thinking', thinking: 'not for this model', signature: 'x' } },
    ],
    tool_calls: [call('call_1', 'weather', '{"city":"Oslo"}'), call('call_2', 'weather', '{"city":')],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '12°C' },
  { role: 'tool', tool_call_id: 'call_2', content: 'Error: invalid arguments', isError: true },
];

describe('History becomes the spec prompt', () => {
  it('system text, user text parts, the assistant turn’s own reasoning, text and parsed calls, then one tool message of results', () => {
    expect(aiSdkPrompt(history)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Two cities, two calls.', providerOptions: { fixture: { signature: 'sig-1' } } },
          { type: 'text', text: 'Checking both.' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: { city: 'Oslo' } },
          // arguments that are not JSON go back as the loop ran them: {}
          { type: 'tool-call', toolCallId: 'call_2', toolName: 'weather', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_1', toolName: 'weather', output: { type: 'text', value: '12°C' } },
          { type: 'tool-result', toolCallId: 'call_2', toolName: 'weather', output: { type: 'error-text', value: 'Error: invalid arguments' } },
        ],
      },
    ]);
  });

  it('a call’s provider metadata, kept as an ai-sdk part, goes back as the call’s providerOptions', () => {
    const prompt = aiSdkPrompt([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        reasoning: [{ provider: 'ai-sdk', data: { toolCallId: 'a', providerMetadata: { google: { thoughtSignature: 'sig' } } } }],
        tool_calls: [call('a', 'step', '{}'), call('b', 'step', '{}')],
      },
    ]);
    expect(prompt[1].content).toEqual([
      { type: 'tool-call', toolCallId: 'a', toolName: 'step', input: {}, providerOptions: { google: { thoughtSignature: 'sig' } } },
      { type: 'tool-call', toolCallId: 'b', toolName: 'step', input: {} },
    ]);
  });

  it('an assistant turn with only calls has no text part, and a later round starts a new tool message', () => {
    const prompt = aiSdkPrompt([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('a', 'step', '{}')] },
      { role: 'tool', tool_call_id: 'a', content: 'one' },
      { role: 'assistant', content: '', tool_calls: [call('b', 'step', '')] },
      { role: 'tool', tool_call_id: 'b', content: 'two' },
    ]);
    expect(prompt.map((m) => [m.role, (m.content as { type: string }[]).map((p) => p.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['tool-call']],
      ['tool', ['tool-result']],
      ['assistant', ['tool-call']],
      ['tool', ['tool-result']],
    ]);
    expect(prompt[3].content[0]).toEqual({ type: 'tool-call', toolCallId: 'b', toolName: 'step', input: {} });
  });
});

describe.each(MODELS)('The exact request body sent back through the real $label', ({ on }) => {
  it('the assistant turn (with its reasoning as reasoning_content) and the tool results as the server receives them', async () => {
    server = await startOpenAIServer([{ kind: 'reply', text: 'Oslo 12°C.' }]);
    await eventsOf(aiSdkProvider(on(server)), userRequest({ messages: history }));
    expect(server.requests[0].body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo and Rome?' },
      {
        role: 'assistant',
        content: 'Checking both.',
        reasoning_content: 'Two cities, two calls.',
        tool_calls: [call('call_1', 'weather', '{"city":"Oslo"}'), call('call_2', 'weather', '{}')],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '12°C' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: invalid arguments' },
    ]);
  });
});
