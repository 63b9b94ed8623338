import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, runToolLoop, type ObserverEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });

function agentWith(observed: ObserverEvent[]) {
  return createAgent({
    provider: scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text":"a"}' }, { id: 'c2', name: 'echo', arguments: '{"text":"b"}' }] },
      { text: 'done' },
    ]),
    model: 'm',
    tools: [echo],
    observers: [(e) => observed.push(e)],
    knobs: { parallelTools: true },
  });
}

describe('tool-call and tool-result events are built only when something reads them', () => {
  it('runToolLoop with callEvents: false emits no card events, while observers and history see every call', async () => {
    const observed: ObserverEvent[] = [];
    const agent = agentWith(observed);
    const events = await lastValueFrom(runToolLoop(agent.resolved, { message: 'go' }, { callEvents: false }).pipe(toArray()));
    expect(events.map((e) => e.type)).not.toContain('tool-call');
    expect(events.map((e) => e.type)).not.toContain('tool-result');
    expect(observed.map((e) => `${e.type}:${e.toolCallId}`)).toEqual(['tool-call-start:c1', 'tool-call-end:c1', 'tool-call-start:c2', 'tool-call-end:c2']);
    const done = events.at(-1);
    expect(done?.type === 'done' && done.history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['a', 'b']);
  });

  it('agent.run emits them by default, and agent.complete gives the same outcome without them', async () => {
    const viaRun: ObserverEvent[] = [];
    const events = await lastValueFrom(agentWith(viaRun).run({ message: 'go' }).pipe(toArray()));
    expect(events.filter((e) => e.type === 'tool-call' || e.type === 'tool-result')).toHaveLength(4);
    const viaComplete: ObserverEvent[] = [];
    const outcome = await agentWith(viaComplete).complete({ message: 'go' });
    const done = events.at(-1);
    expect(done?.type === 'done' && done.history).toEqual(outcome.history);
    expect(viaComplete.map((e) => e.type)).toEqual(viaRun.map((e) => e.type));
  });
});
