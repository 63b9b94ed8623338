import { afterEach, describe, expect, it } from 'vitest';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { createAgent, defineTool, openAIResponsesProvider, type Agent, type OpenAIResponsesProviderOptions, type TurnEvent } from '../../src/index.js';
import { startResponsesServer, type ResponsesServer, type ResponsesStep } from '../fixtures/responses-server.js';
import { responsesClient } from './responses-helpers.js';

let server: ResponsesServer | undefined;
const serve = async (script: readonly ResponsesStep[]) => (server = await startResponsesServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

const agentOn = (s: ResponsesServer, options: OpenAIResponsesProviderOptions = {}): Agent =>
  createAgent({ provider: openAIResponsesProvider(responsesClient(s), options), model: 'fixture-model', tools: [add] });
const runOf = (agent: Agent, message = 'What is 1+2?'): Promise<TurnEvent[]> => lastValueFrom(agent.run({ message }).pipe(toArray()));

/** A first response that thinks, then calls add in two fragments; a second that answers. */
const round: readonly ResponsesStep[] = [
  {
    kind: 'reply',
    id: 'resp_1',
    reasoning: [{ id: 'rs_1', summary: 'Use add.' }],
    toolCalls: [{ callId: 'call_1', name: 'add', arguments: ['{"a":1,', '"b":2}'] }],
    usage: { input_tokens: 30, output_tokens: 12 },
  },
  { kind: 'reply', id: 'resp_2', text: ['The sum ', 'is 3.'], usage: { input_tokens: 45, output_tokens: 6 } },
];

describe('A native round over the real client', () => {
  it('sends the tools, runs the call, and sends the assistant turn and the tool result back as input items', async () => {
    const s = await serve(round);
    const events = await runOf(agentOn(s));
    expect(s.requests[0].body.tools).toEqual([{ type: 'function', ...JSON.parse(JSON.stringify(add.spec)), strict: false }]);
    expect(s.requests[1].body.input).toEqual([
      { role: 'user', content: 'What is 1+2?' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Use add.' }] },
      // stored responses: the item after a reasoning item goes back with its own id, or the API refuses the pair
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' },
      { type: 'function_call_output', call_id: 'call_1', output: '3' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'The sum is 3.', reason: 'final', iterations: 2 });
  });

  it('sums the usage of the turn from each response.completed', async () => {
    const s = await serve(round);
    const events = await runOf(agentOn(s));
    expect(events.filter((e) => e.type === 'usage')).toEqual([
      { type: 'usage', inputTokens: 30, outputTokens: 12 },
      { type: 'usage', inputTokens: 45, outputTokens: 6 },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', usage: { inputTokens: 75, outputTokens: 18 } });
  });

  it('reports each response id and model', async () => {
    const s = await serve(round);
    const responses = (await runOf(agentOn(s))).filter((e) => e.type === 'response');
    expect(responses).toMatchObject([
      { responseId: 'resp_1', responseModel: 'fixture-model-2025', finishReason: 'completed' },
      { responseId: 'resp_2', responseModel: 'fixture-model-2025', finishReason: 'completed' },
    ]);
  });

  it('streams the arguments as tool-call-delta events before the call runs', async () => {
    const s = await serve(round);
    const events = await runOf(agentOn(s));
    const deltas = events.filter((e) => e.type === 'tool-call-delta');
    expect(deltas).toMatchObject([
      { index: 0, id: 'call_1', name: 'add', argumentsText: '{"a":1,' },
      { index: 0, id: 'call_1', name: 'add', argumentsText: '{"a":1,"b":2}' },
    ]);
    expect(events.findLastIndex((e) => e.type === 'tool-call-delta')).toBeLessThan(events.findIndex((e) => e.type === 'tool-call'));
  });
});

describe('Reasoning across iterations', () => {
  it('with store: false the encrypted reasoning items go back in the next request', async () => {
    const s = await serve(round);
    await runOf(agentOn(s, { store: false }));
    expect(s.requests.map((r) => [r.body.store, r.body.include])).toEqual([
      [false, ['reasoning.encrypted_content']],
      [false, ['reasoning.encrypted_content']],
    ]);
    expect(s.requests[1].body.input[1]).toEqual({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Use add.' }], encrypted_content: 'enc:rs_1' });
  });

  it('with previousResponseId the next request continues the stored response and sends only the tool result', async () => {
    const s = await serve(round);
    const events = await runOf(agentOn(s, { previousResponseId: true }));
    expect(s.requests[0].body).not.toHaveProperty('previous_response_id');
    expect(s.requests[1].body.previous_response_id).toBe('resp_1');
    expect(s.requests[1].body.input).toEqual([{ type: 'function_call_output', call_id: 'call_1', output: '3' }]);
    const done = events.at(-1) as Extract<TurnEvent, { type: 'done' }>;
    expect(done.history.at(-1)).toMatchObject({ role: 'assistant', reasoning: [{ provider: 'openai-responses', data: { type: 'response_id', id: 'resp_2' } }] });
  });

  it('a second turn on the returned history continues from the last response', async () => {
    const s = await serve([...round, { kind: 'reply', id: 'resp_3', text: 'Still 3.' }]);
    const agent = agentOn(s, { previousResponseId: true });
    const first = (await runOf(agent)).at(-1) as Extract<TurnEvent, { type: 'done' }>;
    await lastValueFrom(agent.run({ message: 'Sure?', history: first.history }).pipe(toArray()));
    expect(s.requests[2].body.previous_response_id).toBe('resp_2');
    expect(s.requests[2].body.input).toEqual([{ role: 'user', content: 'Sure?' }]);
  });
});
