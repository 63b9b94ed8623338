import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type ChatMessage } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { collect, doneOf, ofType } from './helpers.js';

/** A tool that waits until released or aborted, and records what happened to its signal. */
function gate() {
  const started: string[] = [];
  const aborted: string[] = [];
  let onStart: (name: string) => void = () => {};
  const tool = defineTool({
    name: 'wait',
    description: '',
    parameters: z.object({ name: z.string(), quick: z.boolean().default(false) }),
    execute: ({ name, quick }, { signal }) => {
      started.push(name);
      onStart(name);
      if (quick) return `${name} done`;
      return new Promise<string>((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          aborted.push(name);
          reject(new Error('aborted'));
        });
      });
    },
  });
  return { tool, started, aborted, whenStarted: (fn: (name: string) => void) => (onStart = fn) };
}

const calls = (...specs: [string, boolean][]) => specs.map(([name, quick], i) => ({ id: `c${i}`, name: 'wait', arguments: { name, quick } }));

describe('Cancellation through input.signal', () => {
  it('parallel: finished slots keep their results, running tools are aborted, the rest end interrupted, and done says cancelled', async () => {
    const g = gate();
    const controller = new AbortController();
    g.whenStarted((name) => name === 'b' && queueMicrotask(() => controller.abort()));
    const model = scriptedModel([{ toolCalls: calls(['a', true], ['b', false], ['c', false], ['d', false]) }, { text: 'never' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [g.tool], knobs: { parallelTools: true, maxParallelTools: 2 } });
    const events = await collect(agent, { message: 'x', signal: controller.signal });

    // a finishes at once, so the cap lets c start beside b; d never starts.
    expect(g.started).toEqual(['a', 'b', 'c']);
    expect(g.aborted).toEqual(['b', 'c']);
    const results = ofType(events, 'tool-result');
    expect(results.map((r) => [r.slot, r.outcome])).toEqual([
      [0, 'executed'],
      [1, 'interrupted'],
      [2, 'interrupted'],
      [3, 'interrupted'],
    ]);
    expect(ofType(events, 'tool-call').map((c) => c.id).sort()).toEqual(['c0', 'c1', 'c2', 'c3']);
    const done = doneOf(events);
    expect(done.reason).toBe('cancelled');
    expect(model.requests).toHaveLength(1);
    const tools = done.history.filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual([
      'a done',
      '[interrupted before this tool produced a result]',
      '[interrupted before this tool produced a result]',
      '[interrupted before this tool produced a result]',
    ]);
  });

  it('sequential: the tail never starts and ends interrupted', async () => {
    const g = gate();
    const controller = new AbortController();
    g.whenStarted((name) => name === 'b' && controller.abort());
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: calls(['a', true], ['b', false], ['c', true]) }]),
      model: 'm',
      tools: [g.tool],
    });
    const events = await collect(agent, { message: 'x', signal: controller.signal });
    expect(g.started).toEqual(['a', 'b']);
    expect(ofType(events, 'tool-result').map((r) => r.outcome)).toEqual(['executed', 'interrupted', 'interrupted']);
    expect(doneOf(events).reason).toBe('cancelled');
  });

  it('an already-aborted signal ends the turn at once without asking the model', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const events = await collect(createAgent({ provider: model, model: 'm', tools: [] }), { message: 'x', signal: AbortSignal.abort() });
    expect(events).toEqual([
      { type: 'done', text: '', reason: 'cancelled', history: [{ role: 'user', content: 'x' }], iterations: 0, usage: { inputTokens: 0, outputTokens: 0 } },
    ]);
    expect(model.requests).toHaveLength(0);
  });

  it('leaves no listener on the caller signal once the turn is over', async () => {
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    }) as typeof remove;
    const g = gate();
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: calls(['a', true], ['b', true]) }, { text: 'ok' }]),
      model: 'm',
      tools: [g.tool],
      knobs: { parallelTools: true },
    });
    const out = await agent.complete({ message: 'x', signal });
    expect(out.text).toBe('ok');
    expect(listeners).toBe(0);
  });

  it('unsubscribing tears down the running tools (their signals abort) and emits nothing more', async () => {
    const g = gate();
    const agent = createAgent({ provider: scriptedModel([{ toolCalls: calls(['a', false], ['b', false]) }]), model: 'm', tools: [g.tool], knobs: { parallelTools: true } });
    const seen: string[] = [];
    let stop = () => {};
    const started = new Promise<void>((resolve) => g.whenStarted((name) => name === 'b' && resolve()));
    const sub = agent.run({ message: 'x' }).subscribe((e) => seen.push(e.type));
    stop = () => sub.unsubscribe();
    await started;
    stop();
    expect(g.aborted.sort()).toEqual(['a', 'b']);
    expect(seen).toEqual(['iteration', 'tool-call', 'tool-call']);
  });
});

describe('Injectable clock', () => {
  it('measures durations with the given clock', async () => {
    let now = 1_000;
    const tool = defineTool({ name: 't', description: '', parameters: z.object({}), execute: () => ((now += 250), 'ok') });
    const events = await collect(
      createAgent({ provider: scriptedModel([{ toolCalls: [{ name: 't', arguments: {} }] }, { text: 'k' }]), model: 'm', tools: [tool], clock: { now: () => now } }),
      { message: 'x' },
    );
    expect(ofType(events, 'tool-result')[0].durationMs).toBe(250);
  });
});
