import { afterEach, describe, expect, it } from 'vitest';
import { openAIResponsesProvider, type ChatMessage } from '../../src/index.js';
import { startResponsesServer, type ResponsesServer } from '../fixtures/responses-server.js';
import { eventsOf, userRequest } from './helpers.js';
import { responsesClient } from './responses-helpers.js';

let server: ResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The body the provider sends for `messages`, with these options. */
async function bodyFor(messages: readonly ChatMessage[], options = {}): Promise<any> {
  server = await startResponsesServer([{ kind: 'reply', text: 'ok' }]);
  await eventsOf(openAIResponsesProvider(responsesClient(server), options), userRequest({ messages }));
  return server.requests[0].body;
}

const reasoningItem = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc:rs_1' };
const toolRound: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Oslo and Bergen?' },
  {
    role: 'assistant',
    content: 'Checking both.',
    reasoning: [
      { provider: 'openai-responses', data: reasoningItem },
      { provider: 'anthropic', data: { type: 'thinking', thinking: 'hmm', signature: 'sig' } },
      { provider: 'openai-responses', data: { type: 'response_id', id: 'resp_1' } },
    ],
    tool_calls: [
      { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
      { id: 'call_b', type: 'function', function: { name: 'weather', arguments: '{"city":"Bergen"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_a', content: 'Sunny' },
  { role: 'tool', tool_call_id: 'call_b', content: 'Error executing weather: timed out', isError: true },
];

describe('History goes to the Responses API as input items', () => {
  it('an assistant turn: its reasoning items as they came, its text, then a function_call per call; tool results as function_call_output', async () => {
    const body = await bodyFor(toolRound);
    expect(body.instructions).toBe('Be brief.');
    expect(body.input).toEqual([
      { role: 'user', content: 'Weather in Oslo and Bergen?' },
      reasoningItem,
      { role: 'assistant', content: 'Checking both.' },
      { type: 'function_call', call_id: 'call_a', name: 'weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call', call_id: 'call_b', name: 'weather', arguments: '{"city":"Bergen"}' },
      { type: 'function_call_output', call_id: 'call_a', output: 'Sunny' },
      { type: 'function_call_output', call_id: 'call_b', output: 'Error executing weather: timed out' },
    ]);
    expect(body).not.toHaveProperty('previous_response_id');
  });

  it('an assistant turn without text sends no empty assistant message', async () => {
    const body = await bodyFor([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ]);
    expect(body.input.map((item: { type?: string; role?: string }) => item.type ?? item.role)).toEqual(['user', 'function_call', 'function_call_output']);
  });

  it('with previousResponseId: previous_response_id is the last marked response, and only the messages after it are sent', async () => {
    const history: ChatMessage[] = [
      ...toolRound,
      { role: 'assistant', content: 'Sunny in Oslo.', reasoning: [{ provider: 'openai-responses', data: { type: 'response_id', id: 'resp_2' } }] },
      { role: 'user', content: 'And tomorrow?' },
    ];
    const body = await bodyFor(history, { previousResponseId: true });
    expect(body.previous_response_id).toBe('resp_2');
    expect(body.instructions).toBe('Be brief.');
    expect(body.input).toEqual([{ role: 'user', content: 'And tomorrow?' }]);
  });

  it('with previousResponseId and a tool round: only the tool results follow the marked response', async () => {
    const body = await bodyFor(toolRound, { previousResponseId: true });
    expect(body.previous_response_id).toBe('resp_1');
    expect(body.input).toEqual([
      { type: 'function_call_output', call_id: 'call_a', output: 'Sunny' },
      { type: 'function_call_output', call_id: 'call_b', output: 'Error executing weather: timed out' },
    ]);
  });

  it('with previousResponseId and no marked response yet, the whole history is sent', async () => {
    const body = await bodyFor([{ role: 'user', content: 'hi' }], { previousResponseId: true });
    expect(body).not.toHaveProperty('previous_response_id');
    expect(body.input).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

describe('stored responses: reasoning goes back paired by id with the items that followed it', () => {
  const part = (data: Record<string, unknown>) => ({ provider: 'openai-responses', data });
  const interleaved: ChatMessage[] = [
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
        { id: 'call_b', type: 'function', function: { name: 'weather', arguments: '{"city":"Bergen"}' } },
        { id: 'call_c', type: 'function', function: { name: 'weather', arguments: '{}' } },
      ],
      reasoning: [
        part({ type: 'reasoning', id: 'rs_1', summary: [] }),
        part({ type: 'reasoning', id: 'rs_2', summary: [] }),
        part({
          type: 'output_order',
          items: [
            { type: 'reasoning', id: 'rs_1' },
            { type: 'message', id: 'msg_1' },
            { type: 'function_call', id: 'fc_1', call_id: 'call_a' },
            { type: 'reasoning', id: 'rs_2' },
            { type: 'function_call', id: 'fc_2', call_id: 'call_b' },
          ],
        }),
      ],
    },
  ];

  it('with store (the default): the items in the order they came, each with its id; a call the order does not name follows without one', async () => {
    const body = await bodyFor(interleaved);
    expect(body.input.slice(1)).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_a', name: 'weather', arguments: '{"city":"Oslo"}' },
      { type: 'reasoning', id: 'rs_2', summary: [] },
      { type: 'function_call', id: 'fc_2', call_id: 'call_b', name: 'weather', arguments: '{"city":"Bergen"}' },
      { type: 'function_call', call_id: 'call_c', name: 'weather', arguments: '{}' },
    ]);
  });

  it('with store: false: no item ids (nothing is stored to pair them with); reasoning first, then the text and the calls', async () => {
    const body = await bodyFor(interleaved, { store: false });
    expect(body.input.slice(1)).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'reasoning', id: 'rs_2', summary: [] },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_a', name: 'weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call', call_id: 'call_b', name: 'weather', arguments: '{"city":"Bergen"}' },
      { type: 'function_call', call_id: 'call_c', name: 'weather', arguments: '{}' },
    ]);
  });
});
