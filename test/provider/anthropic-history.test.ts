import { afterEach, describe, expect, it } from 'vitest';
import { anthropicProvider, type ChatMessage } from '../../src/index.js';
import { startAnthropicServer, type AnthropicServer } from '../fixtures/anthropic-server.js';
import { anthropicFor } from './anthropic-helpers.js';
import { eventsOf, userRequest } from './helpers.js';

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The `system` and `messages` the provider sends for this history. */
async function sent(messages: readonly ChatMessage[]): Promise<{ system?: string; messages: unknown[] }> {
  server = await startAnthropicServer([{ kind: 'reply', content: [{ type: 'text', text: 'ok' }] }]);
  await eventsOf(anthropicProvider(anthropicFor(server)), userRequest({ messages }));
  const { system, messages: out } = server.requests[0].body;
  return system === undefined ? { messages: out } : { system, messages: out };
}

const call = (id: string, args: string) => ({ id, type: 'function', function: { name: 'weather', arguments: args } }) as const;
const thinking = { type: 'thinking', thinking: 'Two cities.', signature: 'EqQBCgIYAhIM' };
const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' };

describe('History in the Messages API shape', () => {
  it('an assistant turn sends its thinking blocks first, then its text, then tool_use with parsed input', async () => {
    const body = await sent([
      { role: 'user', content: 'Weather in Oslo and Bergen?' },
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [call('toolu_01', '{"city": "Oslo"}'), call('toolu_02', '{"city":"Bergen"}')],
        reasoning: [
          { provider: 'anthropic', data: thinking },
          { provider: 'openai-responses', data: { type: 'reasoning', id: 'rs_1', encrypted_content: 'x' } },
          { provider: 'anthropic', data: redacted },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_01', content: 'sunny' },
      { role: 'tool', tool_call_id: 'toolu_02', content: 'Error executing weather: timeout', isError: true },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather in Oslo and Bergen?' },
      {
        role: 'assistant',
        content: [
          thinking,
          redacted,
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_01', name: 'weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_02', name: 'weather', input: { city: 'Bergen' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', content: 'sunny' },
          { type: 'tool_result', tool_use_id: 'toolu_02', content: 'Error executing weather: timeout', is_error: true },
        ],
      },
    ]);
  });

  it('adjacent messages of one role are merged, so roles alternate; empty assistant turns are left out', async () => {
    const body = await sent([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: null, tool_calls: [call('t1', '{"city":"Oslo"}')] },
      { role: 'tool', tool_call_id: 't1', content: 'sunny' },
      { role: 'user', content: 'and tomorrow?' },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: 'Rain.' },
      { role: 'system', content: 'Stay polite.' },
      { role: 'user', content: 'thanks' },
    ]);
    expect(body).toEqual({
      system: 'Be brief.\n\nStay polite.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'sunny' }, { type: 'text', text: 'and tomorrow?' }] },
        { role: 'assistant', content: 'Rain.' },
        { role: 'user', content: 'thanks' },
      ],
    });
  });

  it('arguments that are not a JSON object go as input {}; empty arguments too', async () => {
    const body = await sent([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('a', '{"city": "Os'), call('b', '[1,2]'), call('c', '')] },
      { role: 'tool', tool_call_id: 'a', content: 'bad arguments', isError: true },
      { role: 'tool', tool_call_id: 'b', content: 'bad arguments', isError: true },
      { role: 'tool', tool_call_id: 'c', content: 'fine' },
    ]);
    expect((body.messages[1] as { content: { input: unknown }[] }).content.map((b) => b.input)).toEqual([{}, {}, {}]);
  });
});

describe('interleaved thinking goes back where it stood', () => {
  it('a response with thinking between its calls records the block order, and the next request sends each block in that order', async () => {
    server = await startAnthropicServer([
      {
        kind: 'reply',
        content: [
          { type: 'thinking', thinking: 'Oslo first.', signature: 'sig-1' },
          { type: 'tool_use', id: 't1', name: 'weather', input: '{"city":"Oslo"}' },
          { type: 'thinking', thinking: 'Now Bergen.', signature: 'sig-2' },
          { type: 'tool_use', id: 't2', name: 'weather', input: '{"city":"Bergen"}' },
        ],
      },
    ]);
    const events = await eventsOf(anthropicProvider(anthropicFor(server)));
    const parts = events.flatMap((e) => (e.type === 'reasoning' ? [e.part] : []));
    expect(parts.map((p) => p.data.type)).toEqual(['thinking', 'thinking', 'block_order']);
    expect(parts[2].data).toEqual({ type: 'block_order', blocks: ['reasoning', 'tool_use:t1', 'reasoning', 'tool_use:t2'] });
    await server.close();
    const { messages } = await sent([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [call('t1', '{"city":"Oslo"}'), call('t2', '{"city":"Bergen"}')], reasoning: parts },
      { role: 'tool', tool_call_id: 't1', content: 'sunny' },
      { role: 'tool', tool_call_id: 't2', content: 'rain' },
    ]);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Oslo first.', signature: 'sig-1' },
        { type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } },
        { type: 'thinking', thinking: 'Now Bergen.', signature: 'sig-2' },
        { type: 'tool_use', id: 't2', name: 'weather', input: { city: 'Bergen' } },
      ],
    });
  });

  it('thinking that all came first needs no order: no block_order part', async () => {
    server = await startAnthropicServer([
      { kind: 'reply', content: [{ type: 'thinking', thinking: 'Plan.', signature: 's' }, { type: 'text', text: 'Hi' }, { type: 'tool_use', id: 't1', name: 'weather', input: '{}' }] },
    ]);
    const events = await eventsOf(anthropicProvider(anthropicFor(server)));
    expect(events.flatMap((e) => (e.type === 'reasoning' ? [e.part.data.type] : []))).toEqual(['thinking']);
  });
});
