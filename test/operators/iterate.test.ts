import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { iterate } from '../../src/operators.js';
import { echo, setup } from './helpers.js';

describe('iterate: one iteration emits exactly one step', () => {
  it("an answer without tool calls is a 'done' step with the text, appended to history", async () => {
    const { resolved, turn, events } = setup({ steps: [{ text: 'hello' }] });
    const steps = await lastValueFrom(iterate(resolved, turn).pipe(toArray()));
    expect(steps).toEqual([{ kind: 'done', text: 'hello', reason: 'final' }]);
    expect(turn.iteration).toBe(1);
    expect(events[0]).toEqual({ type: 'iteration', iteration: 1 });
    expect(turn.history.at(-1)).toEqual({ role: 'assistant', content: 'hello' });
  });

  it("a round of tool calls is a 'next' step, with the round in history", async () => {
    const { resolved, turn } = setup({ tools: [echo()], steps: [{ toolCalls: [{ id: 'c', name: 'echo', arguments: { v: 'x' } }] }] });
    const steps = await lastValueFrom(iterate(resolved, turn).pipe(toArray()));
    expect(steps).toEqual([{ kind: 'next' }]);
    expect(turn.history.slice(1).map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(turn.history.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c', content: 'x' });
  });

  it('drains waiting steering messages into history before the request', async () => {
    const { resolved, turn, model } = setup({ steps: [{ text: 'ok' }] });
    turn.steering.push('one more thing');
    await lastValueFrom(iterate(resolved, turn));
    expect(model.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'one more thing' });
    expect(turn.steering).toEqual([]);
  });

  it("a cancelled turn is a 'done' step with reason cancelled, without asking the model", async () => {
    const ac = new AbortController();
    ac.abort();
    const { resolved, turn, model } = setup({ steps: [{ text: 'never' }], input: { signal: ac.signal } });
    expect(await lastValueFrom(iterate(resolved, turn))).toEqual({ kind: 'done', text: '', reason: 'cancelled' });
    expect(model.requests).toEqual([]);
  });
});
