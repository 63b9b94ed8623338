import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '../../src/index.js';
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
});
