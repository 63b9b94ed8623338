import { map, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type IterationPlan, type PrepareState, type TurnEvent, type TurnEventOf } from '../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { code, toolMessages } from './turn-harness.js';

const values = {
  I: 'iteration 1', J: 'iteration 2', K: 'iteration 3', a: 'call a', A: 'a executed', b: 'call b', B: 'b executed',
  x: 'b excluded', t: 'text ok', f: 'done final', z: 'done cancelled',
};

/** The names each request offered, in order. */
const offered = (model: ReturnType<typeof scriptedModel>) => model.requests.map((r) => (r.tools ?? []).map((spec) => spec.name));

describe('prepareIteration plans each request before it is sent: it narrows the tools, switches the model, changes the system prompt', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('narrows the tools per iteration; a call to a tool it left out ends excluded and never runs', () => {
    let done: TurnEventOf<'done'> | undefined;
    const seen: string[][] = [];
    const model = scriptedModel([
      { toolCalls: [{ id: 'a1', name: 'a', arguments: {} }, { id: 'b1', name: 'b', arguments: {} }] },
      { toolCalls: [{ id: 'b2', name: 'b', arguments: {} }] },
      { text: 'ok' },
    ]);
    const plans: (IterationPlan | undefined)[] = [{ tools: ['a'] }, { tools: ['b'] }, undefined];
    const prepareIteration = (state: PrepareState) => (seen.push([...state.tools]), plans[state.iteration - 1]);
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =      cold('--------(r|)', { r: 'A' });
      const b$ =      cold('--------(r|)', { r: 'B' });
      const expected =    '(Ia)----(AbxJb)-(BKtf|)';
      const aSubs =       '^-------!';
      const bSubs =       '--------^-------!';
      const agent = createAgent({ provider: model, model: 'm', tools: [fakeTool('a', a$), fakeTool('b', b$)], prepareIteration });
      const events$ = agent.run({ message: 'go' }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, values);
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
      expectSubscriptions(b$.subscriptions).toBe(bSubs);
    });
    expect(seen).toEqual([['a', 'b'], ['a', 'b'], ['a', 'b']]);
    expect(offered(model)).toEqual([['a'], ['b'], ['a', 'b']]);
    expect(toolMessages(done!.history)).toEqual(['a1=A', 'b1=Tool not available in this turn: b', 'b2=B']);
  });

  it('an Observable answer is waited for: the iteration event comes once it answered, naming the model it chose, and the requests go to that model', () => {
    const iterations: TurnEventOf<'iteration'>[] = [];
    const switches: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ id: 'a1', name: 'a', arguments: {} }] }, { text: 'ok' }]);
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const big$ =    cold<IterationPlan>('---(p|)', { p: { model: 'big' } });
      const small$ =  cold<IterationPlan>('---(p|)', { p: { model: 'small' } });
      const a$ =      cold('----(r|)', { r: 'A' });
      const expected =    '---(Ia)A--(Jtf|)';
      const bigSubs =     '^--!';
      const smallSubs =   '-------^--!';
      const aSubs =       '---^---!';
      const agent = createAgent({
        provider: model,
        model: 'm',
        tools: [fakeTool('a', a$)],
        prepareIteration: (state) => (state.iteration === 1 ? big$ : small$),
        onModelSwitch: (from, to) => switches.push(`${from}>${to}`),
      });
      const events$ = agent.run({ message: 'go' }).pipe(
        tap((e: TurnEvent) => void (e.type === 'iteration' && iterations.push(e))),
        map(code),
      );
      expectObservable(events$).toBe(expected, { ...values, A: 'a executed' });
      expectSubscriptions(big$.subscriptions).toBe(bigSubs);
      expectSubscriptions(small$.subscriptions).toBe(smallSubs);
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
    });
    expect(iterations.map((e) => e.model)).toEqual(['big', 'small']);
    expect(model.requests.map((r) => r.model)).toEqual(['big', 'small']);
    expect(switches).toEqual(['m>big', 'big>small']);
  });

  it("cancelling the turn while it waits for an answer ends it 'cancelled', before any request, and unsubscribes the answer", () => {
    let done: TurnEventOf<'done'> | undefined;
    const model = scriptedModel([{ text: 'never' }]);
    const ac = new AbortController();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const plan$ =   cold<IterationPlan>('-----(p|)', { p: { model: 'big' } });
      const expected =    '--(z|)';
      const planSubs =    '^-!';
      cold('--x').subscribe(() => ac.abort());
      const agent = createAgent({ provider: model, model: 'm', tools: [], prepareIteration: () => plan$ });
      const events$ = agent.run({ message: 'go', signal: ac.signal }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, values);
      expectSubscriptions(plan$.subscriptions).toBe(planSubs);
    });
    expect(model.requests).toHaveLength(0);
    expect(done).toMatchObject({ reason: 'cancelled', text: '', iterations: 0, history: [{ role: 'user', content: 'go' }] });
  });

  it('replaces or extends the system prompt for one request; history never keeps it', () => {
    let done: TurnEventOf<'done'> | undefined;
    const model = scriptedModel([
      { toolCalls: [{ id: 'a1', name: 'a', arguments: {} }] },
      { toolCalls: [{ id: 'a2', name: 'a', arguments: {} }] },
      { text: 'ok' },
    ]);
    const plans: IterationPlan[] = [{ system: { append: 'Call a first.' } }, { system: 'Answer now.' }, {}];
    scheduler.run(({ cold, expectObservable }) => {
      const a$ =      cold('-----(r|)', { r: 'A' });
      const expected =    '(Ia)-(AJa)(AKtf|)';
      const agent = createAgent({
        provider: model,
        model: 'm',
        instructions: 'Be brief.',
        tools: [fakeTool('a', a$)],
        prepareIteration: (state) => plans[state.iteration - 1],
      });
      const events$ = agent.run({ message: 'go' }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, { ...values, A: 'a executed' });
    });
    const systems = model.requests.map((r) => r.messages.filter((m) => m.role === 'system').map((m) => m.content));
    expect(systems).toEqual([['Be brief.', 'Call a first.'], ['Answer now.'], ['Be brief.']]);
    expect(done!.history.filter((m) => m.role === 'system')).toEqual([]);
  });
});
