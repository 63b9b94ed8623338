import { map, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type ChatMessage, type TurnEventOf } from '../src/index.js';
import type { ProviderEvent } from '../src/provider/provider.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { code, finish, text } from './turn-harness.js';

/** Messages as `role: content` lines (tool calls shown by id). */
const lines = (messages: readonly ChatMessage[]) =>
  messages.map((m) =>
    m.role === 'assistant' && m.tool_calls ? `assistant: calls ${m.tool_calls.map((c) => c.id).join(',')}` : `${m.role}: ${m.content}`,
  );

describe('steering messages that arrive mid-turn join history as user messages at the start of the next iteration', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('a message that arrives while a tool runs is in the next request, after the round', () => {
    let done: TurnEventOf<'done'> | undefined;
    const model = scriptedModel([{ toolCalls: [{ id: 'a', name: 'a', arguments: {} }] }, { text: 'ok' }]);
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const a$ =       cold('------(r|)', { r: 'A' });
      const steering$ = hot('---s', { s: 'also check b' });
      const expected =      '(Ia)--(AJtz|)';
      const steeringSubs =  '^-----!';
      const aSubs =         '^-----!';
      const agent = createAgent({ provider: model, model: 'm', tools: [fakeTool('a', a$)] });
      const events$ = agent.run({ message: 'go', steering: steering$ }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, {
        I: 'iteration 1', a: 'call a', A: 'a executed', J: 'iteration 2', t: 'text ok', z: 'done final',
      });
      expectSubscriptions(steering$.subscriptions).toBe(steeringSubs);
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
    });
    expect(model.requests.map((r) => lines(r.messages))).toEqual([
      ['user: go'],
      ['user: go', 'assistant: calls a', 'tool: A', 'user: also check b'],
    ]);
    expect(lines(done!.history)).toEqual(['user: go', 'assistant: calls a', 'tool: A', 'user: also check b', 'assistant: ok']);
  });

  it('a message that arrives while the model writes its final answer earns one more iteration', () => {
    let done: TurnEventOf<'done'> | undefined;
    let model!: ReturnType<typeof scriptedModel>;
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const draft$ = cold<ProviderEvent>('----(df|)', { d: text('draft'), f: finish });
      const steering$ =              hot('--s', { s: 'shorter please' });
      const expected =                   'I---(dJrz|)';
      const draftSubs =                  '^---!';
      model = scriptedModel([draft$, { text: 'revised' }]);
      const agent = createAgent({ provider: model, model: 'm', tools: [] });
      const events$ = agent.run({ message: 'go', steering: steering$ }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, {
        I: 'iteration 1', d: 'text draft', J: 'iteration 2', r: 'text revised', z: 'done final',
      });
      expectSubscriptions(draft$.subscriptions).toBe(draftSubs);
    });
    expect(lines(model.requests[1].messages)).toEqual(['user: go', 'assistant: draft', 'user: shorter please']);
    expect(done!.text).toBe('revised');
  });

  it('several messages within one iteration are added in arrival order', () => {
    const model = scriptedModel([{ toolCalls: [{ id: 'a', name: 'a', arguments: {} }] }, { text: 'ok' }]);
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const a$ =       cold('------(r|)', { r: 'A' });
      const steering$ = hot('-x--y', { x: 'first', y: 'second' });
      const expected =      '(Ia)--(AJtz|)';
      const subs =          '^-----!';
      const agent = createAgent({ provider: model, model: 'm', tools: [fakeTool('a', a$)] });
      expectObservable(agent.run({ message: 'go', steering: steering$ }).pipe(map(code))).toBe(expected, {
        I: 'iteration 1', a: 'call a', A: 'a executed', J: 'iteration 2', t: 'text ok', z: 'done final',
      });
      expectSubscriptions(a$.subscriptions).toBe(subs);
      expectSubscriptions(steering$.subscriptions).toBe(subs);
    });
    expect(lines(model.requests[1].messages).slice(-2)).toEqual(['user: first', 'user: second']);
  });

  it('a message already waiting when the turn starts joins the first request', () => {
    const model = scriptedModel([{ text: 'ok' }]);
    scheduler.run(({ expectObservable }) => {
      const steering = ['early'];
      const agent = createAgent({ provider: model, model: 'm', tools: [] });
      expectObservable(agent.run({ message: 'go', steering }).pipe(map(code))).toBe('(Itz|)', {
        I: 'iteration 1', t: 'text ok', z: 'done final',
      });
    });
    expect(lines(model.requests[0].messages)).toEqual(['user: go', 'user: early']);
  });
});
