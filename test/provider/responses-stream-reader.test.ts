import { describe, expect, it } from 'vitest';
import type { ProviderEvent } from '../../src/index.js';
import { emitTurnEnd } from '../../src/provider/responses/emit-turn-end.js';
import { ResponsesStreamReader } from '../../src/provider/responses/responses-stream-reader.js';

/** Every provider event a sequence of stream events makes, closing events included when the response closed. */
function eventsOf(events: readonly object[], chain = false): ProviderEvent[] {
  const out: ProviderEvent[] = [];
  const reader = new ResponsesStreamReader('openai-responses');
  for (const event of events) reader.read(event as { type: string }, (e) => out.push(e));
  const turn = reader.turn();
  if (turn) emitTurnEnd(turn, chain, (e) => out.push(e));
  return out;
}

const completed = { type: 'response.completed', response: { id: 'resp_1', status: 'completed', model: 'm' } };

describe('The stream reader takes what a server sends, however sparse', () => {
  it('a delta without output_index continues the call before it', () => {
    const events = eventsOf([
      { type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', call_id: 'c1', name: 'add', arguments: '' } },
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"a":' },
      { type: 'response.function_call_arguments.delta', delta: '1}' },
      completed,
    ]);
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([{ type: 'tool-call', id: 'c1', name: 'add', arguments: '{"a":1}' }]);
  });

  it('arguments that come whole with the added item are one tool-call-delta', () => {
    const events = eventsOf([{ type: 'response.output_item.added', output_index: 3, item: { type: 'function_call', call_id: 'c1', name: 'add', arguments: '{"a":1}' } }, completed]);
    expect(events.slice(0, 2)).toEqual([
      { type: 'tool-call-delta', index: 0, id: 'c1', name: 'add', argumentsDelta: '{"a":1}' },
      { type: 'tool-call', id: 'c1', name: 'add', arguments: '{"a":1}' },
    ]);
  });

  it('the arguments of .done replace the deltas, and a call without a name is dropped', () => {
    const events = eventsOf([
      { type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', call_id: 'c1', name: 'add' } },
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"a":' },
      { type: 'response.function_call_arguments.done', output_index: 0, arguments: '{"a":2}' },
      { type: 'response.function_call_arguments.delta', output_index: 1, delta: '{}' },
      completed,
    ]);
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([{ type: 'tool-call', id: 'c1', name: 'add', arguments: '{"a":2}' }]);
  });

  it('events of unknown types, null items and non-string deltas are ignored', () => {
    const events = eventsOf([
      { type: 'response.web_search_call.searching', output_index: 0 },
      { type: 'response.output_item.added', output_index: 0, item: null },
      { type: 'response.output_text.delta', delta: 42 },
      { type: 'response.output_text.delta', delta: '' },
      { type: 'response.output_text.delta', delta: 'ok' },
      completed,
    ]);
    expect(events).toEqual([{ type: 'text-delta', text: 'ok' }, { type: 'finish', reason: 'completed', responseId: 'resp_1', responseModel: 'm' }]);
  });

  it('the id and model of response.created stand in when the closing event leaves them out; no usage without usage', () => {
    const events = eventsOf([{ type: 'response.created', response: { id: 'resp_9', model: 'm9', status: 'in_progress' } }, { type: 'response.incomplete', response: {} }]);
    expect(events).toEqual([{ type: 'finish', reason: 'incomplete', responseId: 'resp_9', responseModel: 'm9' }]);
  });

  it('a stream without its closing event has no turn', () => {
    const reader = new ResponsesStreamReader('openai-responses');
    reader.read({ type: 'response.output_text.delta', delta: 'half' } as { type: string }, () => undefined);
    expect(reader.turn()).toBeUndefined();
  });

  it('reasoning items come out in output order, whatever order their done events had', () => {
    const events = eventsOf([
      { type: 'response.output_item.done', output_index: 1, item: { type: 'reasoning', id: 'rs_b', summary: [] } },
      { type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'rs_a', summary: [] } },
      completed,
    ], true);
    expect(events.filter((e) => e.type === 'reasoning').map((e) => (e.type === 'reasoning' ? e.part.data : undefined))).toEqual([
      { type: 'reasoning', id: 'rs_a', summary: [] },
      { type: 'reasoning', id: 'rs_b', summary: [] },
      { type: 'output_order', items: [{ type: 'reasoning', id: 'rs_a' }, { type: 'reasoning', id: 'rs_b' }] },
      { type: 'response_id', id: 'resp_1' },
    ]);
  });
});
