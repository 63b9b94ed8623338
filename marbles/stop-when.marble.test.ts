import { map, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, hasToolCall, stepCountIs, type StopState, type TurnEventOf } from '../src/index.js';
import type { ProviderEvent } from '../src/provider/provider.js';
import { createTestScheduler, fakeTool, scriptedModel, type ScriptedResponse } from '../src/testing/index.js';
import { code, finish, text, toolMessages } from './turn-harness.js';

/** Three rounds that each call `t` (different arguments), then an answer. */
const rounds = (): ScriptedResponse[] => [
  { text: 'first', toolCalls: [{ id: 'c1', name: 't', arguments: { n: 1 } }] },
  { text: 'second', toolCalls: [{ id: 'c2', name: 't', arguments: { n: 2 } }] },
  { toolCalls: [{ id: 'c3', name: 't', arguments: { n: 3 } }] },
  { text: 'answer' },
];

const values = {
  I: 'iteration 1', J: 'iteration 2', K: 'iteration 3', c: 'call t', T: 't executed', s: 'call submit', S: 'submit executed',
  x: 'call submit', X: 'submit failed', p: 'text first', q: 'text second', a: 'text answer', f: 'done final', z: 'done stopped', y: 'text draft', g: 'text again',
};

describe("stopWhen ends the turn with reason 'stopped' after a round joins history, before the next request", () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('stepCountIs(2): two rounds run, the third request is never sent', () => {
    let done: TurnEventOf<'done'> | undefined;
    const model = scriptedModel(rounds());
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const t$ =      cold('------(r|)', { r: 'R' });
      const expected =    '(Ipc)-(TJqc)(Tz|)';
      const tSubs =      ['^-----!          ',
                          '------^-----!    '];
      const agent = createAgent({ provider: model, model: 'm', tools: [fakeTool('t', t$)], stopWhen: stepCountIs(2) });
      const events$ = agent.run({ message: 'go' }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, values);
      expectSubscriptions(t$.subscriptions).toBe(tSubs);
    });
    expect(model.requests).toHaveLength(2);
    expect(done).toMatchObject({ reason: 'stopped', text: 'second', iterations: 2 });
    expect(toolMessages(done!.history)).toEqual(['c1=R', 'c2=R']);
    expect(done!.history.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c2' });
  });

  it("hasToolCall('submit'): a failed submit goes on; the round in which submit succeeds ends the turn", () => {
    let done: TurnEventOf<'done'> | undefined;
    const model = scriptedModel([
      { toolCalls: [{ id: 's1', name: 'submit', arguments: { ok: false } }] },
      { toolCalls: [{ id: 's2', name: 'submit', arguments: { ok: true } }] },
      { text: 'never asked' },
    ]);
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const bad$ =    cold('------(r|)', { r: { success: false, output: 'missing title' } });
      const ok$ =     cold('------(r|)', { r: 'accepted' });
      const expected =    '(Is)--(XJs)-(Sz|)';
      const badSubs =     '^-----!';
      const okSubs =      '------^-----!';
      const submit = fakeTool('submit', (args) => (args.ok ? ok$ : bad$));
      const agent = createAgent({ provider: model, model: 'm', tools: [submit], stopWhen: hasToolCall('submit') });
      const events$ = agent.run({ message: 'go' }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, values);
      expectSubscriptions(bad$.subscriptions).toBe(badSubs);
      expectSubscriptions(ok$.subscriptions).toBe(okSubs);
    });
    expect(model.requests).toHaveLength(2);
    expect(done).toMatchObject({ reason: 'stopped', text: '', iterations: 2 });
    expect(toolMessages(done!.history)).toEqual(['s1=Error: missing title', 's2=accepted']);
  });

  it('a custom condition reads a copy of the turn after each round: iteration, usage, history and the round\'s results', () => {
    let done: TurnEventOf<'done'> | undefined;
    const seen: { iteration: number; input: number; messages: number; results: string[] }[] = [];
    const model = scriptedModel(rounds().map((step) => ({ ...(step as object), usage: { inputTokens: 10, outputTokens: 1 } })));
    const spent = (state: StopState): boolean => {
      seen.push({ iteration: state.iteration, input: state.usage.inputTokens, messages: state.history.length, results: state.results.map((r) => `${r.name}=${r.content}`) });
      return state.usage.inputTokens >= 20;
    };
    scheduler.run(({ cold, expectObservable }) => {
      const t$ =      cold('--------(r|)', { r: 'R' });
      const expected =    '(Ipuc)--(TJquc)-(Tz|)';
      const agent = createAgent({ provider: model, model: 'm', tools: [fakeTool('t', t$)], stopWhen: spent });
      const events$ = agent.run({ message: 'go' }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, { ...values, u: 'usage' });
    });
    expect(seen).toEqual([
      { iteration: 1, input: 10, messages: 3, results: ['t=R'] },
      { iteration: 2, input: 20, messages: 5, results: ['t=R'] },
    ]);
    expect(done).toMatchObject({ reason: 'stopped', text: 'second', usage: { inputTokens: 20, outputTokens: 2 } });
  });

  it('a stop comes before the iteration cap: no summary request is sent', () => {
    let done: TurnEventOf<'done'> | undefined;
    const model = scriptedModel(rounds());
    scheduler.run(({ cold, expectObservable }) => {
      const t$ =      cold('------(r|)', { r: 'R' });
      const expected =    '(Ipc)-(TJqc)(Tz|)';
      const agent = createAgent({
        provider: model,
        model: 'm',
        tools: [fakeTool('t', t$)],
        knobs: { maxToolIterations: 2 },
        stopWhen: [hasToolCall('other'), stepCountIs(2)],
      });
      const events$ = agent.run({ message: 'go' }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, values);
    });
    expect(model.requests).toHaveLength(2);
    expect(done!.reason).toBe('stopped');
  });

  it('an answer that steering would follow with one more iteration ends the turn when a condition holds', () => {
    let done: TurnEventOf<'done'> | undefined;
    let model!: ReturnType<typeof scriptedModel>;
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const draft$ = cold<ProviderEvent>('----(yf|)', { y: text('draft'), f: finish });
      const steering$ =              hot('--s', { s: 'shorter please' });
      const expected =                   'I---(yz|)';
      const draftSubs =                  '^---!';
      const steeringSubs =               '^---!';
      model = scriptedModel([draft$, { text: 'again' }]);
      const agent = createAgent({ provider: model, model: 'm', tools: [], stopWhen: stepCountIs(1) });
      const events$ = agent.run({ message: 'go', steering: steering$ }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, values);
      expectSubscriptions(draft$.subscriptions).toBe(draftSubs);
      expectSubscriptions(steering$.subscriptions).toBe(steeringSubs);
    });
    expect(model.requests).toHaveLength(1);
    expect(done).toMatchObject({ reason: 'stopped', text: 'draft' });
    expect(done!.history.at(-1)).toEqual({ role: 'assistant', content: 'draft' });
  });

  it("a turn's own stopWhen is added to the agent's: either ends it", () => {
    let done: TurnEventOf<'done'> | undefined;
    const model = scriptedModel(rounds());
    scheduler.run(({ cold, expectObservable }) => {
      const t$ =      cold('------(r|)', { r: 'R' });
      const expected =    '(Ipc)-(Tz|)';
      const agent = createAgent({ provider: model, model: 'm', tools: [fakeTool('t', t$)], stopWhen: stepCountIs(3) });
      const events$ = agent.run({ message: 'go', stopWhen: stepCountIs(1) }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, values);
    });
    expect(done).toMatchObject({ reason: 'stopped', text: 'first', iterations: 1 });
  });
});
