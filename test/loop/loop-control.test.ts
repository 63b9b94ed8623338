import { EMPTY, lastValueFrom, throwError, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigurationError,
  createAgent,
  defineTool,
  hasToolCall,
  LoopControlError,
  stepCountIs,
  textProtocolProvider,
  TurnInputError,
  type AgentConfig,
  type IterationPlan,
  type Logger,
  type PrepareIteration,
  type StopCondition,
  type TurnEvent,
  type TurnEventOf,
} from '../../src/index.js';
import { fakeTool, scriptedModel, type ScriptedResponse } from '../../src/testing/index.js';

const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));

/** Unhandled rejections seen while a test runs: none may come from the loop. */
let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  await new Promise((resolve) => setImmediate(resolve));
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

const a = fakeTool('a', 'A');
const b = fakeTool('b', 'B');
const calls = (...names: string[]): ScriptedResponse => ({ toolCalls: names.map((name, i) => ({ id: `${name}${i}`, name, arguments: {} })) });

function agentWith(config: Partial<AgentConfig>, script: ScriptedResponse[] = [calls('a'), calls('a'), { text: 'ok' }]) {
  const model = scriptedModel(script);
  return { model, agent: createAgent({ provider: model, model: 'm', tools: [a, b], ...config }) };
}

/** Runs the turn to its error, which must be a LoopControlError. */
async function failure(config: Partial<AgentConfig>, script?: ScriptedResponse[]): Promise<LoopControlError> {
  const { agent } = agentWith(config, script);
  const err = await agent.complete({ message: 'go' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LoopControlError);
  return err as LoopControlError;
}

describe('stopWhen: a condition that throws or answers anything but a boolean fails the turn with a LoopControlError', () => {
  it('a throw: the error names the option and carries the history; a secret in its message is scrubbed', async () => {
    const err = await failure({ stopWhen: () => { throw new Error('no budget for sk-proj-abcdefghijklmnopqrstuvwxyz0123456789'); } });
    expect(err).toMatchObject({ code: 'loop_control', option: 'stopWhen' });
    expect(err.message).toMatch(/^stopWhen condition 1 threw: no budget for /);
    expect(err.message).not.toContain('abcdefghijklmnop');
    expect(err.history.filter((m) => m.role === 'tool')).toHaveLength(1);
  });

  for (const [thrown, shown] of [
    [undefined, 'undefined'],
    ['plain text', 'plain text'],
    [Object.defineProperty(new Error('x'), 'message', { get: () => { throw new Error('getter'); } }), 'Error'],
  ] as const) {
    it(`a thrown value of any shape (${shown}) still becomes the typed error`, async () => {
      const err = await failure({ stopWhen: () => { throw thrown; } });
      expect(err.message).toContain(shown);
    });
  }

  for (const [answer, shown] of [
    [1, 'a number'],
    ['yes', 'a string'],
    [undefined, 'undefined'],
    [null, 'null'],
    [Promise.resolve(true), 'a Promise'],
    [{}, 'an object'],
  ] as const) {
    it(`an answer of ${shown} is refused`, async () => {
      const err = await failure({ stopWhen: (() => answer) as unknown as StopCondition });
      expect(err.message).toBe(`stopWhen condition 1 returned ${shown}${shown === 'a Promise' ? ' (a condition answers at once)' : ''}, not true or false.`);
    });
  }

  it('the state is a frozen copy: a condition cannot change the turn', async () => {
    const { agent } = agentWith({
      stopWhen: (state) => {
        expect(() => (state.history as unknown[]).push({ role: 'user', content: 'injected' })).toThrow(TypeError);
        expect(() => ((state as { iteration: number }).iteration = 99)).toThrow(TypeError);
        return false;
      },
    });
    const done = await agent.complete({ message: 'go' });
    expect(done.reason).toBe('final');
    expect(done.history.some((m) => m.content === 'injected')).toBe(false);
  });

  it('bad options are refused where they are given: ConfigurationError at createAgent, TurnInputError for a turn', async () => {
    const model = scriptedModel([{ text: 'ok' }]);
    expect(() => createAgent({ provider: model, model: 'm', tools: [], stopWhen: 'never' as never })).toThrow(ConfigurationError);
    expect(() => createAgent({ provider: model, model: 'm', tools: [], stopWhen: [stepCountIs(2), 3] as never })).toThrow(ConfigurationError);
    expect(() => createAgent({ provider: model, model: 'm', tools: [], prepareIteration: {} as never })).toThrow(ConfigurationError);
    const agent = createAgent({ provider: model, model: 'm', tools: [] });
    await expect(agent.complete({ message: 'go', stopWhen: 5 as never })).rejects.toThrow(TurnInputError);
    await expect(agent.complete({ message: 'go', prepareIteration: 'x' as never })).rejects.toThrow(TurnInputError);
    expect(model.requests).toHaveLength(0);
  });

  it('a malformed text-protocol reply that would be retried ends the turn instead, without the retry prompt or its markup', async () => {
    const broken = '<tool_call>{"name": "a", "arguments": {"x": 1</tool_call>';
    const inner = scriptedModel([{ text: broken }, { text: 'never' }], { nativeTools: false });
    const agent = createAgent({ provider: textProtocolProvider(inner), model: 'm', tools: [a], stopWhen: stepCountIs(1) });
    const done = await agent.complete({ message: 'go' });
    expect(done).toMatchObject({ reason: 'stopped', text: '', iterations: 1 });
    expect(done.history).toEqual([{ role: 'user', content: 'go' }, { role: 'assistant', content: broken }]);
    expect(inner.requests).toHaveLength(1);
  });

  it('stepCountIs needs a whole number from 1; hasToolCall needs names', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity, '2']) expect(() => stepCountIs(bad as number)).toThrow(ConfigurationError);
    expect(() => hasToolCall()).toThrow(ConfigurationError);
    expect(() => hasToolCall('a', 3 as never)).toThrow(ConfigurationError);
  });

  it('hasToolCall counts only a call that ran: one refused for invalid arguments goes on', async () => {
    const strict = defineTool({ name: 'submit', description: 'Submits', parameters: z.object({ title: z.string() }), execute: () => 'accepted' });
    const model = scriptedModel([
      { toolCalls: [{ id: 's1', name: 'submit', arguments: {} }] },
      { toolCalls: [{ id: 's2', name: 'submit', arguments: { title: 'T' } }] },
      { text: 'never' },
    ]);
    const agent = createAgent({ provider: model, model: 'm', tools: [strict], stopWhen: hasToolCall('submit') });
    const done = await agent.complete({ message: 'go' });
    expect(done).toMatchObject({ reason: 'stopped', iterations: 2 });
    expect(model.requests).toHaveLength(2);
  });
});

describe('prepareIteration: a function that throws, rejects or answers what is not a plan fails the turn before its request', () => {
  const cases: [string, PrepareIteration, RegExp][] = [
    ['a throw', () => { throw new Error('boom'); }, /^prepareIteration failed: boom$/],
    ['a rejection', () => Promise.reject(new Error('later')), /^prepareIteration failed: later$/],
    ['an Observable error', () => throwError(() => new Error('stream')), /^prepareIteration failed: stream$/],
    ['a number', (() => 42) as never, /answered a number, not a plan/],
    ['an array', (() => ['a']) as never, /answered an array, not a plan/],
    ['tools that are not names', () => ({ tools: 'a' }) as never, /tools must be an array of tool names/],
    ['tools with a number', () => ({ tools: ['a', 1] }) as never, /tools must be an array of tool names/],
    ['an empty model', () => ({ model: ' ' }), /model must be a non-empty string/],
    ['a system that is neither', () => ({ system: { append: 3 } }) as never, /system must be a string/],
    ['a plan whose getter throws', () => Object.defineProperty({}, 'tools', { enumerable: true, get: () => { throw new Error('getter'); } }), /could not be applied: getter/],
  ];
  for (const [what, prepareIteration, message] of cases) {
    it(`${what}`, async () => {
      const { agent, model } = agentWith({ prepareIteration });
      const err = await agent.complete({ message: 'go' }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(LoopControlError);
      expect(err).toMatchObject({ option: 'prepareIteration', history: [{ role: 'user', content: 'go' }] });
      expect((err as Error).message).toMatch(message);
      expect(model.requests).toHaveLength(0);
    });
  }

  it('a bad plan changes nothing: its tools are not narrowed when its model is bad', async () => {
    const seen: string[][] = [];
    const plans: IterationPlan[] = [{ tools: ['a'], model: '' }];
    const { agent } = agentWith({ prepareIteration: (state) => (seen.push([...state.tools]), plans[0]) });
    await expect(agent.complete({ message: 'go' })).rejects.toThrow(LoopControlError);
    expect(seen).toEqual([['a', 'b']]);
  });

  it('a Promise answer is waited for; an Observable that completes empty changes nothing', async () => {
    const answers = [Promise.resolve({ tools: ['b'] }), EMPTY];
    const { agent, model } = agentWith({ prepareIteration: (state) => answers[state.iteration - 1] ?? undefined });
    const done = await agent.complete({ message: 'go' });
    expect(done.reason).toBe('final');
    expect(model.requests.map((r) => r.tools?.map((t) => t.name))).toEqual([['b'], ['a', 'b'], ['a', 'b']]);
  });
});

describe('prepareIteration never widens the tools, never advertises an excluded tool, and its narrowing is enforced', () => {
  it('names outside the iteration are left out with a warning; an excluded tool stays excluded', async () => {
    const warned: unknown[] = [];
    const logger: Logger = { debug: () => {}, info: () => {}, warn: (obj: unknown) => void warned.push(obj), error: () => {} } as never;
    const secret = fakeTool('secret', 'S');
    const model = scriptedModel([calls('a', 'secret', 'Secret ', 'b'), { text: 'ok' }]);
    const agent = createAgent({
      provider: model,
      model: 'm',
      tools: [a, b, secret],
      excludedTools: ['secret'],
      logger,
      prepareIteration: () => ({ tools: ['a', 'secret', 'nope'] }),
    });
    const done = await agent.complete({ message: 'go' });
    expect(model.requests[0].tools?.map((t) => t.name)).toEqual(['a']);
    expect(done.history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'A',
      'Tool not available in this turn: secret',
      'Tool not available in this turn: Secret ',
      'Tool not available in this turn: b',
    ]);
    expect(secret.calls).toHaveLength(0);
    const aboutPlans = warned.filter((w) => typeof w === 'object' && w !== null && 'iteration' in w);
    expect(aboutPlans).toEqual([1, 2].map((iteration) => expect.objectContaining({ iteration, tools: ['secret', 'nope'] })));
  });

  it('a call that reaches a left-out tool by its letter case or its {server}__ suffix ends excluded', async () => {
    const mcp = fakeTool('srv__lookup', 'L');
    const model = scriptedModel([calls('A', 'lookup'), { text: 'ok' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [a, b, mcp], prepareIteration: () => ({ tools: ['b'] }) });
    const events = await collect(agent.run({ message: 'go' }));
    const results = events.filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result');
    expect(results.map((r) => [r.name, r.outcome])).toEqual([['A', 'excluded'], ['lookup', 'excluded']]);
    expect(mcp.calls).toHaveLength(0);
  });

  it("a turn's prepareIteration runs after the agent's and sees what it left: it can only narrow further", async () => {
    const seen: string[][] = [];
    const { agent, model } = agentWith({ prepareIteration: () => ({ tools: ['a'], model: 'agent-model' }) }, [{ text: 'ok' }]);
    await agent.complete({ message: 'go', prepareIteration: (state) => (seen.push([...state.tools, state.model]), { tools: ['a', 'b'] }) });
    expect(seen).toEqual([['a', 'agent-model']]);
    expect(model.requests[0]).toMatchObject({ model: 'agent-model', tools: [{ name: 'a' }] });
  });

  it('the text protocol lists only the offered tools, and a text call to another is not a call', async () => {
    const inner = scriptedModel([{ text: '<tool_call>{"name": "b", "arguments": {}}</tool_call>' }], { nativeTools: false });
    const other = fakeTool('b', 'B');
    const agent = createAgent({ provider: textProtocolProvider(inner), model: 'm', tools: [a, other], prepareIteration: () => ({ tools: ['a'] }) });
    const done = await agent.complete({ message: 'go' });
    const protocol = inner.requests[0].messages.find((m) => m.role === 'system')?.content ?? '';
    expect(protocol).toContain('- a: Fake tool a');
    expect(protocol).not.toContain('- b:');
    expect(done).toMatchObject({ reason: 'final', iterations: 1 });
    expect(other.calls).toHaveLength(0);
  });

  it('without tool_search, no deferred tool is listed and tool_search itself ends excluded', async () => {
    const deferred = fakeTool('srv__search', 'found');
    const model = scriptedModel([{ toolCalls: [{ id: 't1', name: 'tool_search', arguments: { query: 'select:srv__search' } }] }, { text: 'ok' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [a], deferredTools: [deferred], prepareIteration: () => ({ tools: ['a'] }) });
    const done = await agent.complete({ message: 'go' });
    expect(model.requests[0].tools?.map((t) => t.name)).toEqual(['a']);
    expect(model.requests[0].messages.filter((m) => m.role === 'system')).toEqual([]);
    expect(done.history.find((m) => m.role === 'tool')?.content).toBe('Tool not available in this turn: tool_search');
    expect(model.requests[1].tools?.map((t) => t.name)).toEqual(['a']);
  });
});
