import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, runToolLoop, type ObserverEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });

function agentWith(observed: ObserverEvent[]) {
  return createAgent({
    provider: scriptedModel([
      {
        toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text":"a"}' }, { id: 'c2', name: 'echo', arguments: '{"text":"b"}' }],
        usage: { inputTokens: 7, outputTokens: 3 },
      },
      { text: 'done', usage: { inputTokens: 11, outputTokens: 2 } },
    ]),
    model: 'm',
    tools: [echo],
    observers: [(e) => observed.push(e)],
    knobs: { parallelTools: true },
  });
}

describe('tool-call and tool-result events always go out; observers and history see every call', () => {
  it('runToolLoop emits a card for each call, while observers and history see every call', async () => {
    const observed: ObserverEvent[] = [];
    const agent = agentWith(observed);
    const events = await lastValueFrom(runToolLoop(agent.resolved, { message: 'go' }).pipe(toArray()));
    const cards = events.flatMap((e) =>
      e.type === 'tool-call' ? [`call ${e.id} ${e.executes}`] : e.type === 'tool-result' ? [`result ${e.id} ${e.outcome}`] : [],
    );
    expect(cards).toEqual(['call c1 true', 'result c1 executed', 'call c2 true', 'result c2 executed']);
    expect(observed.map((e) => `${e.type}:${e.toolCallId}`)).toEqual(['tool-call-start:c1', 'tool-call-end:c1', 'tool-call-start:c2', 'tool-call-end:c2']);
    const done = events.at(-1);
    expect(done?.type === 'done' && done.history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['a', 'b']);
    expect(done?.type === 'done' && done.usage).toEqual({ inputTokens: 18, outputTokens: 5 });
  });

  it("agent.complete gives the same outcome as agent.run's done event, and the observers see the same calls", async () => {
    const viaRun: ObserverEvent[] = [];
    const events = await lastValueFrom(agentWith(viaRun).run({ message: 'go' }).pipe(toArray()));
    expect(events.filter((e) => e.type === 'tool-call' || e.type === 'tool-result')).toHaveLength(4);
    const viaComplete: ObserverEvent[] = [];
    const outcome = await agentWith(viaComplete).complete({ message: 'go' });
    const done = events.at(-1);
    if (done?.type !== 'done') throw new Error(`the turn ended with ${done?.type}`);
    expect(outcome).toEqual({ text: done.text, reason: done.reason, history: done.history, iterations: done.iterations, usage: done.usage });
    expect(outcome).toMatchObject({ text: 'done', reason: 'final', iterations: 2, usage: { inputTokens: 18, outputTokens: 5 } });
    expect(viaComplete.map((e) => `${e.type}:${e.toolCallId}`)).toEqual(viaRun.map((e) => `${e.type}:${e.toolCallId}`));
    expect(viaComplete).toHaveLength(4);
  });
});
