import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigurationError,
  createAgent,
  defineTool,
  StructuredOutputError,
  textProtocolProvider,
  ToolLoopError,
  TurnInputError,
  type ProviderRequest,
} from '../../src/index.js';
import { scriptedModel, type ScriptedStep } from '../../src/testing/index.js';
import { structuredRetryText } from '../../src/loop/structured-answer.js';
import { collect, doneOf, ofType } from './helpers.js';

const weather = z.object({ city: z.string(), celsius: z.number() }).meta({ title: 'weather_report' });

const lookup = defineTool({
  name: 'lookup',
  description: 'Reads the temperature of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 21`,
});

const agentWith = (script: readonly ScriptedStep[], knobs = {}) => {
  const model = scriptedModel(script);
  return { model, agent: createAgent({ provider: model, model: 'm', tools: [lookup], knobs }) };
};

async function failureOf(promise: Promise<unknown>): Promise<StructuredOutputError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StructuredOutputError);
  return err as StructuredOutputError;
}

describe('structured output: the final answer is parsed as JSON and validated by the schema', () => {
  it('a valid first answer ends the turn with done.object, typed by the schema', async () => {
    const { agent, model } = agentWith([{ text: '{"city": "Oslo", "celsius": 21}' }]);
    const done = await agent.complete({ message: 'weather in Oslo?', output: weather });
    expect(done.reason).toBe('final');
    if (done.reason !== 'final') return;
    expect(done.object).toEqual({ city: 'Oslo', celsius: 21 });
    expect(done.object.city).toBe('Oslo');
    expect(done.text).toBe('{"city": "Oslo", "celsius": 21}');
    expect(done.iterations).toBe(1);
    // the request asks for the schema, named by its title
    const { $schema: _dialect, ...schema } = z.toJSONSchema(weather, { io: 'input' });
    expect(model.requests[0].output).toEqual({ name: 'weather_report', schema });
    expect(Object.isFrozen(model.requests[0].output!.schema)).toBe(true);
  });

  it('the done event of run() carries the object too, and the schema output (defaults, transforms) is what it holds', async () => {
    const schema = z.object({ tags: z.array(z.string()).default([]), count: z.string().transform((s) => Number(s)) });
    const { agent, model } = agentWith([{ text: '{"count": "7"}' }]);
    const done = doneOf(await collect(agent, { message: 'count', output: schema }));
    expect(done.object).toEqual({ tags: [], count: 7 });
    // named `output` when the schema has no usable title; input side: the defaulted field is optional
    expect(model.requests[0].output?.name).toBe('output');
    expect(model.requests[0].output?.schema).toMatchObject({ required: ['count'] });
  });

  it('a reply wrapped in a ``` fence (with or without a language) is accepted', async () => {
    for (const text of ['```json\n{"city": "Oslo", "celsius": 3}\n```', '  ```\n{"city": "Oslo", "celsius": 3}\n```  ']) {
      const { agent } = agentWith([{ text }]);
      const done = await agent.complete({ message: 'weather?', output: weather });
      expect(done.object).toEqual({ city: 'Oslo', celsius: 3 });
    }
  });

  it('an invalid reply is sent back with the problems, and the corrected one is the answer', async () => {
    const { agent, model } = agentWith([{ text: '{"city": "Oslo", "celsius": "warm"}' }, { text: '{"city": "Oslo", "celsius": 21}' }]);
    const done = await agent.complete({ message: 'weather?', output: weather });
    expect(done.object).toEqual({ city: 'Oslo', celsius: 21 });
    expect(done.iterations).toBe(2);
    const correction = structuredRetryText('celsius: Invalid input: expected number, received string');
    expect(correction).toBe(
      'Your last reply is not the answer that was asked for: celsius: Invalid input: expected number, received string. ' +
        'Reply again with only a JSON value that matches the required schema, and no other text.',
    );
    expect(model.requests[1].messages.slice(-2)).toEqual([
      { role: 'assistant', content: '{"city": "Oslo", "celsius": "warm"}' },
      { role: 'user', content: correction },
    ]);
    expect(model.requests[1].output).toBe(model.requests[0].output); // one frozen format per schema
    expect(done.history.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('a reply that is not JSON says so in the correction', async () => {
    const { agent, model } = agentWith([{ text: 'It is sunny in Oslo.' }, { text: '' }, { text: '{"city": "Oslo", "celsius": 21}' }]);
    await agent.complete({ message: 'weather?', output: weather });
    expect(model.requests[1].messages.at(-1)?.content).toMatch(/^Your last reply is not the answer that was asked for: \(root\): the reply is not valid JSON \(/);
    expect(model.requests[2].messages.at(-1)?.content).toContain('(root): the reply is empty, not JSON');
  });

  it('after maxStructuredOutputRetries (default 2) the turn fails with StructuredOutputError carrying the last text', async () => {
    const replies = ['{"city": 1}', '{"city": 2}', '{"city": 3, "celsius": "x"}'];
    const { agent, model } = agentWith(replies.map((text) => ({ text })));
    const err = await failureOf(agent.complete({ message: 'weather?', output: weather }));
    expect(model.requests).toHaveLength(3);
    expect(err).toBeInstanceOf(ToolLoopError);
    expect(err.code).toBe('structured_output');
    expect(err.name).toBe('StructuredOutputError');
    expect(err.text).toBe('{"city": 3, "celsius": "x"}');
    expect(err.retries).toBe(2);
    expect(err.issues).toEqual([
      { path: ['city'], message: 'Invalid input: expected string, received number' },
      { path: ['celsius'], message: 'Invalid input: expected number, received string' },
    ]);
    expect(err.message).toBe(
      "The model's answer did not match the output schema after 2 retries: city: Invalid input: expected string, received number; " +
        'celsius: Invalid input: expected number, received string.',
    );
    // the history ends with the last reply, whole: no correction written after it
    expect(err.history.at(-1)).toEqual({ role: 'assistant', content: '{"city": 3, "celsius": "x"}' });
    expect(err.history).toHaveLength(6);
  });

  it('maxStructuredOutputRetries: 0 fails at the first invalid answer; 1 allows one correction', async () => {
    const zero = agentWith([{ text: 'nope' }], { maxStructuredOutputRetries: 0 });
    const err = await failureOf(zero.agent.complete({ message: 'weather?', output: weather }));
    expect(err.retries).toBe(0);
    expect(err.message).toMatch(/^The model's answer did not match the output schema after 0 retries: \(root\): the reply is not valid JSON/);
    const one = agentWith([{ text: 'nope' }, { text: 'still no' }], { maxStructuredOutputRetries: 1 });
    expect((await failureOf(one.agent.complete({ message: 'weather?', output: weather }))).retries).toBe(1);
    expect(one.model.requests).toHaveLength(2);
  });

  it('the error message is scrubbed; the text it carries is the reply as written', async () => {
    const reply = 'my key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
    const { agent } = agentWith([{ text: reply }], { maxStructuredOutputRetries: 0 });
    const err = await failureOf(agent.complete({ message: 'weather?', output: weather }));
    expect(err.message).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789');
    expect(err.text).toBe(reply);
  });

  it('tools first, then the structured answer: every request asks for the output, beside the tools', async () => {
    const { agent, model } = agentWith([{ toolCalls: [{ id: 'c1', name: 'lookup', arguments: { city: 'Oslo' } }] }, { text: '{"city": "Oslo", "celsius": 21}' }]);
    const events = await collect(agent, { message: 'weather?', output: weather });
    expect(ofType(events, 'tool-result').map((e) => e.output)).toEqual(['Oslo: 21']);
    expect(doneOf(events).object).toEqual({ city: 'Oslo', celsius: 21 });
    expect(model.requests.map((r) => [r.tools?.map((t) => t.name), r.output?.name])).toEqual([
      [['lookup'], 'weather_report'],
      [['lookup'], 'weather_report'],
    ]);
  });

  it('a turn without output has no object and its requests carry none', async () => {
    const { agent, model } = agentWith([{ text: '{"city": "Oslo"}' }]);
    const done = await agent.complete({ message: 'weather?' });
    expect('object' in done).toBe(false);
    expect('output' in model.requests[0]).toBe(false);
  });

  it('a turn stopped at the iteration cap ends max-iterations without an object; its summary request asks for prose', async () => {
    const call = { toolCalls: [{ name: 'lookup', arguments: { city: 'Oslo' } }] };
    const { agent, model } = agentWith([call, { text: 'It is 21 degrees.' }], { maxToolIterations: 1 });
    const done = await agent.complete({ message: 'weather?', output: weather });
    expect(done.reason).toBe('max-iterations');
    expect(done.object).toBeUndefined();
    expect(model.requests[1].output).toBeUndefined();
  });

  it('a text-protocol turn whose tool calls stay unreadable fails with StructuredOutputError, never a final without object', async () => {
    const inner = scriptedModel(() => ({ text: '<tool_call>{"name": "lookup", "arguments": </tool_call>' }), { nativeTools: false });
    const agent = createAgent({ provider: textProtocolProvider(inner), model: 'm', tools: [lookup] });
    const err = await failureOf(agent.complete({ message: 'weather?', output: weather }));
    expect(err.issues).toEqual([{ path: [], message: 'it looks like a tool call that could not be parsed' }]);
    expect(inner.requests).toHaveLength(3); // the malformed-protocol retries ran first
  });

  it('an output that is not a zod schema is a TurnInputError, and nothing is sent', async () => {
    const { agent, model } = agentWith([{ text: '{}' }]);
    await expect(agent.complete({ message: 'x', output: { type: 'object' } as never })).rejects.toBeInstanceOf(TurnInputError);
    expect(model.requests).toHaveLength(0);
  });

  it('a schema whose check throws (an async refinement) counts as an invalid answer, never an uncaught error', async () => {
    const schema = z.object({ a: z.number() }).refine(async () => true);
    const { agent } = agentWith([{ text: '{"a": 1}' }], { maxStructuredOutputRetries: 0 });
    const err = await failureOf(agent.complete({ message: 'x', output: schema }));
    expect(err.issues[0].message).toMatch(/^the schema could not check it/);
  });

  it('a count knob that is not a whole number is a ConfigurationError at createAgent', () => {
    for (const value of [1.5, Number.NaN, '2', Infinity]) {
      expect(() => createAgent({ provider: scriptedModel([]), model: 'm', tools: [], knobs: { maxStructuredOutputRetries: value as never } })).toThrow(ConfigurationError);
    }
    const knobs = (value: number) => createAgent({ provider: scriptedModel([]), model: 'm', tools: [], knobs: { maxStructuredOutputRetries: value } }).resolved.knobs;
    expect(knobs(0).maxStructuredOutputRetries).toBe(0);
    expect(knobs(-1).maxStructuredOutputRetries).toBe(2);
    expect(createAgent({ provider: scriptedModel([]), model: 'm', tools: [] }).resolved.knobs.maxStructuredOutputRetries).toBe(2);
  });

  it('the scripted model records the output format in its requests (what a test of your own agent reads)', async () => {
    const seen: ProviderRequest[] = [];
    const model = scriptedModel((request) => (seen.push(request), { text: '{"city": "Oslo", "celsius": 1}' }));
    await createAgent({ provider: model, model: 'm', tools: [] }).complete({ message: 'x', output: weather });
    expect(model.requests[0].output).toBe(seen[0].output);
    expect(model.requests[0].output?.name).toBe('weather_report');
  });
});
