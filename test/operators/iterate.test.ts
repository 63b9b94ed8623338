import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { isTurnEvent } from '../../src/index.js';
import { isIterationStep, iterate, steer, type IterationStep } from '../../src/operators.js';
import { echo, setup } from './helpers.js';

/** An iteration's values: its events, and its steps. */
async function run(...args: Parameters<typeof iterate>) {
  const values = await lastValueFrom(iterate(...args).pipe(toArray()));
  return { values, events: values.filter(isTurnEvent), steps: values.filter((v): v is IterationStep => !isTurnEvent(v)) };
}

describe('iterate: one iteration emits its events, then exactly one step', () => {
  it("an answer without tool calls is a 'done' step with the text, appended to the next snapshot's history", async () => {
    const { turn, snapshot } = setup({ steps: [{ text: 'hello' }] });
    const { values, events, steps } = await run(turn, snapshot);
    expect(steps).toHaveLength(1);
    expect(values.at(-1)).toBe(steps[0]);
    expect(isIterationStep(steps[0])).toBe(true);
    expect(steps[0]).toMatchObject({ kind: 'done', text: 'hello', reason: 'final' });
    expect(steps[0].snapshot.iteration).toBe(1);
    expect(events[0]).toEqual({ type: 'iteration', iteration: 1, model: 'm' });
    expect(steps[0].snapshot.history.at(-1)).toEqual({ role: 'assistant', content: 'hello' });
    // the snapshot it started from is left as it was
    expect([snapshot.iteration, snapshot.history]).toEqual([0, [{ role: 'user', content: 'hi' }]]);
  });

  it("a round of tool calls is a 'next' step, with the round in the next snapshot's history", async () => {
    const { turn, snapshot } = setup({ tools: [echo()], steps: [{ toolCalls: [{ id: 'c', name: 'echo', arguments: { v: 'x' } }] }] });
    const { steps, events } = await run(turn, snapshot);
    expect(steps.map((s) => s.kind)).toEqual(['next']);
    const { history } = steps[0].snapshot;
    expect(history.slice(1).map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(history.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c', content: 'x' });
    expect(events.map((e) => e.type)).toEqual(['iteration', 'tool-call', 'tool-result']);
    expect(snapshot.history).toHaveLength(1);
  });

  it('drains waiting steering messages into history before the request', async () => {
    const { turn, snapshot, model } = setup({ steps: [{ text: 'ok' }] });
    steer(turn, 'one more thing');
    const { steps } = await run(turn, snapshot);
    expect(model.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'one more thing' });
    expect(turn.hasSteering()).toBe(false);
    expect(steps[0].snapshot.history.map((m) => m.content)).toEqual(['hi', 'one more thing', 'ok']);
    expect(steps[0].snapshot.steering).toEqual([]);
  });

  it("steering a snapshot still holds joins history first, before the turn's queued messages", async () => {
    const { turn, snapshot, model } = setup({ steps: [{ text: 'ok' }] });
    steer(turn, 'queued');
    await run(turn, { ...snapshot, steering: ['saved'] });
    expect(model.requests[0].messages.slice(-2)).toEqual([
      { role: 'user', content: 'saved' },
      { role: 'user', content: 'queued' },
    ]);
  });

  it('the usage the model reports is added to the snapshot', async () => {
    const { turn, snapshot } = setup({ steps: [{ text: 'ok', usage: { inputTokens: 5, outputTokens: 2 } }] });
    const { steps } = await run(turn, { ...snapshot, usage: { inputTokens: 1, outputTokens: 1 } });
    expect(steps[0].snapshot.usage).toEqual({ inputTokens: 6, outputTokens: 3 });
  });

  it("a cancelled turn is a 'done' step with reason cancelled, without asking the model", async () => {
    const ac = new AbortController();
    ac.abort();
    const { turn, snapshot, model } = setup({ steps: [{ text: 'never' }], input: { signal: ac.signal } });
    const { values } = await run(turn, snapshot);
    expect(values).toEqual([{ kind: 'done', snapshot, text: '', reason: 'cancelled' }]);
    expect(model.requests).toEqual([]);
  });
});
