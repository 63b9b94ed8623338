import { catchError, map, tap, throwError } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, MaxIterationsError, type TurnEventOf } from '../src/index.js';
import type { ProviderEvent } from '../src/provider/provider.js';
import { createTestScheduler, fakeTool, scriptedModel, type ScriptedResponse } from '../src/testing/index.js';
import { code, finish, text } from './turn-harness.js';

const CAP_NOTE = '[Stopped after reaching the tool iteration limit (2).]';

/** Two rounds that each call `t` (different arguments), then `summary` for the third request. */
const script = (summary: ScriptedResponse): ScriptedResponse[] => [
  { toolCalls: [{ id: 'c1', name: 't', arguments: { n: 1 } }] },
  { toolCalls: [{ id: 'c2', name: 't', arguments: { n: 2 } }] },
  summary,
];

const values = {
  I: 'iteration 1', J: 'iteration 2', K: 'iteration 3', c: 'call t', T: 't executed',
  s: 'text best so far', z: 'done max-iterations',
};

describe("the iteration cap in 'summary' mode asks once more without tools and ends with reason 'max-iterations'", () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('after two rounds the model is asked for its best answer, which comes back with the cap note', () => {
    let done: TurnEventOf<'done'> | undefined;
    let model!: ReturnType<typeof scriptedModel>;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const t$ =                      cold('------(r|)', { r: 'R' });
      const summary$ = cold<ProviderEvent>('----(sf|)', { s: text('best so far'), f: finish });
      const expected =                     '(Ic)--(TJc)-(TK)(sz|)';
      const tSubs =                       ['^-----!              ',
                                           '------^-----!        '];
      const summarySubs =                  '------------^---!';
      model = scriptedModel(script(summary$));
      const agent = createAgent({ provider: model, model: 'm', tools: [fakeTool('t', t$)], knobs: { maxToolIterations: 2 } });
      const events$ = agent.run({ message: 'go' }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, values);
      expectSubscriptions(t$.subscriptions).toBe(tSubs);
      expectSubscriptions(summary$.subscriptions).toBe(summarySubs);
    });
    expect(done).toMatchObject({ reason: 'max-iterations', text: `best so far\n\n${CAP_NOTE}` });
    expect(model.requests).toHaveLength(3);
    const [first, , last] = model.requests;
    expect(first.tools?.map((s) => s.name)).toEqual(['t']);
    expect(last.tools).toBeUndefined();
    expect(last.messages.at(-1)).toMatchObject({ role: 'user' });
    expect((last.messages.at(-1) as { content: string }).content).toMatch(/limit of 2 tool iterations/);
    expect(done!.history.filter((m) => m.role === 'tool')).toHaveLength(2);
  });

  it('when the summary request fails, the turn still ends with reason max-iterations and a fallback text', () => {
    let done: TurnEventOf<'done'> | undefined;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const t$ =                      cold('------(r|)', { r: 'R' });
      const summary$ = cold<ProviderEvent>('----#', undefined, new Error('overloaded'));
      const expected =                     '(Ic)--(TJc)-(TK)(z|)';
      const tSubs =                       ['^-----!              ',
                                           '------^-----!        '];
      const summarySubs =                  '------------^---!';
      const agent = createAgent({
        provider: scriptedModel(script(summary$)),
        model: 'm',
        tools: [fakeTool('t', t$)],
        knobs: { maxToolIterations: 2, maxIterationBehavior: 'summary' },
      });
      const events$ = agent.run({ message: 'go' }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, values);
      expectSubscriptions(t$.subscriptions).toBe(tSubs);
      expectSubscriptions(summary$.subscriptions).toBe(summarySubs);
    });
    expect(done!.reason).toBe('max-iterations');
    expect(done!.text).toMatch(/2 tool iterations/);
  });
});

describe("the iteration cap in 'error' mode fails the turn with MaxIterationsError", () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('after two rounds the Observable errors; the model is not asked again', () => {
    let error: unknown;
    let model!: ReturnType<typeof scriptedModel>;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const t$ =                      cold('------(r|)', { r: 'R' });
      const summary$ = cold<ProviderEvent>('----(sf|)', { s: text('never'), f: finish });
      const expected =                     '(Ic)--(TJc)-(T#)';
      const tSubs =                       ['^-----!         ',
                                           '------^-----!   '];
      model = scriptedModel(script(summary$));
      const agent = createAgent({
        provider: model,
        model: 'm',
        tools: [fakeTool('t', t$)],
        knobs: { maxToolIterations: 2, maxIterationBehavior: 'error' },
      });
      const events$ = agent.run({ message: 'go' }).pipe(
        map(code),
        catchError((err: unknown) => {
          error = err;
          return throwError(() => (err instanceof MaxIterationsError ? `MaxIterationsError(${err.iterations})` : err));
        }),
      );
      expectObservable(events$).toBe(expected, values, 'MaxIterationsError(2)');
      expectSubscriptions(t$.subscriptions).toBe(tSubs);
      expectSubscriptions(summary$.subscriptions).toBe([]);
    });
    expect(model.requests).toHaveLength(2);
    expect(error).toBeInstanceOf(MaxIterationsError);
    const history = (error as MaxIterationsError).history;
    expect(history.filter((m) => m.role === 'tool').map((m) => (m as { tool_call_id: string }).tool_call_id)).toEqual(['c1', 'c2']);
  });
});
