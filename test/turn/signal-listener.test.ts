import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lastValueFrom, toArray } from 'rxjs';
import { ApprovalManager, createAgent, defineTool, pauseForApproval, type ProviderRequest } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { collect, doneOf } from './helpers.js';

/** Counts the 'abort' listeners added to `signal`, and those still on it. */
function countListeners(signal: AbortSignal): { added: number; active: () => number } {
  const counts = { added: 0, live: new Set<unknown>() };
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((type: string, listener: EventListenerOrEventListenerObject, options?: AddEventListenerOptions | boolean) => {
    if (type === 'abort') {
      counts.added++;
      counts.live.add(listener);
    }
    add(type, listener, options);
  }) as AbortSignal['addEventListener'];
  signal.removeEventListener = ((type: string, listener: EventListenerOrEventListenerObject, options?: EventListenerOptions | boolean) => {
    if (type === 'abort') counts.live.delete(listener);
    remove(type, listener, options);
  }) as AbortSignal['removeEventListener'];
  return {
    get added() {
      return counts.added;
    },
    active: () => counts.live.size,
  };
}

const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ text: z.string() }), execute: async ({ text }) => text });
const agentOf = () =>
  createAgent({
    provider: scriptedModel([
      { toolCalls: [{ id: 'a', name: 'echo', arguments: { text: 'a' } }, { id: 'b', name: 'echo', arguments: { text: 'b' } }] },
      { toolCalls: [{ id: 'c', name: 'echo', arguments: { text: 'c' } }] },
      { text: 'done' },
    ]),
    model: 'm',
    tools: [echo],
    knobs: { parallelTools: true },
  });

describe("a turn with a signal listens to it once, from its start to its end", () => {
  for (const how of ['run', 'complete'] as const) {
    it(`${how}: one 'abort' listener for three requests and two rounds, none left after the turn`, async () => {
      const controller = new AbortController();
      const listeners = countListeners(controller.signal);
      const input = { message: 'go', signal: controller.signal };
      const agent = agentOf();
      const done = how === 'run' ? doneOf(await collect(agent, input)) : await agent.complete(input);
      expect(done.reason).toBe('final');
      expect(listeners.added).toBe(1);
      expect(listeners.active()).toBe(0);
    });
  }

  it('a turn cancelled mid-round leaves no listener either', async () => {
    const controller = new AbortController();
    const listeners = countListeners(controller.signal);
    const hang = defineTool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), execute: () => (controller.abort(), new Promise<string>(() => {})) });
    const agent = createAgent({ provider: scriptedModel([{ toolCalls: [{ id: 'a', name: 'echo', arguments: { text: 'a' } }] }, { text: 'never' }]), model: 'm', tools: [hang] });
    const done = doneOf(await collect(agent, { message: 'go', signal: controller.signal }));
    expect(done.reason).toBe('cancelled');
    expect(listeners.added).toBe(1);
    expect(listeners.active()).toBe(0);
  });

  it('a parked turn resumed with a signal listens to it once too, none left after it', async () => {
    const write = defineTool({ name: 'write', description: '', parameters: z.object({ text: z.string() }), approvalMarker: true, execute: ({ text }) => text });
    // the model's step follows from the history, so the resuming agent continues the same script
    const script = [
      { toolCalls: [{ id: 'a', name: 'echo', arguments: { text: 'a' } }, { id: 'b', name: 'write', arguments: { text: 'b' } }] },
      { toolCalls: [{ id: 'c', name: 'echo', arguments: { text: 'c' } }] },
      { text: 'done' },
    ];
    const approval = new ApprovalManager({ level: 'supervised', autoApprove: ['echo'], alwaysAsk: [] }, pauseForApproval());
    const agent = createAgent({
      provider: scriptedModel((request: ProviderRequest) => script[request.messages.filter((m) => m.role === 'assistant').length] ?? { text: 'out of script' }),
      model: 'm',
      tools: [echo, write],
      approval,
    });
    const parked = await agent.complete({ message: 'go' });
    expect(parked.reason).toBe('paused');
    const controller = new AbortController();
    const listeners = countListeners(controller.signal);
    const events = await lastValueFrom(agent.resume(parked.snapshot!, { decisions: { [parked.pending![0].requestId]: 'yes' }, signal: controller.signal }).pipe(toArray()));
    expect(doneOf(events).reason).toBe('final');
    expect(listeners.added).toBe(1);
    expect(listeners.active()).toBe(0);
  });
});
