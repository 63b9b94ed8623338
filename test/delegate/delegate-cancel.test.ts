import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, delegateTool, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { eventCode, fakeTool, scriptedModel } from '../../src/testing/index.js';

const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });

/** A tool that answers only when aborted: it never finishes on its own. */
const hanging = () =>
  fakeTool('slow', (_args, ctx) => new Promise<string>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))), { risk: 'read' });

function setup(observed: unknown[] = []) {
  const quick = fakeTool('quick', 'fast answer', { risk: 'read' });
  const slow = hanging();
  const childModel = scriptedModel([{ toolCalls: [call('c1', 'quick'), call('c2', 'slow')] }, { text: 'never' }]);
  const child = createAgent({ name: 'child', provider: childModel, model: 'm', tools: [quick, slow], observers: [(e) => void observed.push(e)] });
  const parentModel = scriptedModel([{ toolCalls: [call('p1', 'delegate', { task: 'work' })] }, { text: 'never' }]);
  const parent = createAgent({ name: 'parent', provider: parentModel, model: 'm', tools: [delegateTool({ agent: child, name: 'delegate', description: 'd' })] });
  return { parent, quick, slow, childModel, parentModel };
}

/** Runs the parent's turn and aborts its signal when `when` sees an event (at once, or once what it shows has started). */
function runUntil(parent: ReturnType<typeof createAgent>, when: (e: TurnEvent) => boolean, atOnce = false): Promise<TurnEvent[]> {
  const controller = new AbortController();
  const seen: TurnEvent[] = [];
  return new Promise((resolve, reject) =>
    parent.run({ message: 'go', signal: controller.signal }).subscribe({
      next: (e) => {
        seen.push(e);
        if (when(e)) (atOnce ? controller.abort() : queueMicrotask(() => controller.abort()));
      },
      error: reject,
      complete: () => resolve(seen),
    }),
  );
}

const slowStarted = (e: TurnEvent) => e.type === 'delegate' && e.event.type === 'tool-call' && e.event.name === 'slow';

describe('cancelling the parent cancels the child', () => {
  it("the child's finished call keeps its result, its running one ends interrupted, then the call itself", async () => {
    const { parent, slow, parentModel } = setup();
    const all = await runUntil(parent, slowStarted);
    expect(all.map(eventCode)).toEqual([
      'iteration 1',
      'call delegate',
      'child> iteration 1',
      'child> call quick',
      'child> quick executed',
      'child> call slow',
      'child> slow interrupted',
      'delegate interrupted',
      'done cancelled',
    ]);
    expect(slow.calls[0].signal.aborted).toBe(true);
    const done = all.at(-1) as TurnEventOf<'done'>;
    expect(done.history.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'p1', content: '[interrupted before this tool produced a result]' });
    expect(parentModel.requests).toHaveLength(1);
  });

  it("the child's observers see every call it started end", async () => {
    const observed: { type: string; tool: string; outcome?: string }[] = [];
    const { parent } = setup(observed as unknown[]);
    await runUntil(parent, slowStarted);
    expect(observed.map((e) => [e.type, e.tool, e.outcome])).toEqual([
      ['tool-call-start', 'quick', undefined],
      ['tool-call-end', 'quick', 'executed'],
      ['tool-call-start', 'slow', undefined],
      ['tool-call-end', 'slow', 'interrupted'],
    ]);
  });

  it('unsubscribing from the parent aborts the child and its running tool', async () => {
    const { parent, slow } = setup();
    await new Promise<void>((resolve) => {
      const sub = parent.run({ message: 'go' }).subscribe((e) => {
        if (slowStarted(e)) {
          queueMicrotask(() => {
            sub.unsubscribe();
            resolve();
          });
        }
      });
    });
    expect(slow.calls[0].signal.aborted).toBe(true);
  });

  it("a parent cancelled from the call's tool-call event never starts the child", async () => {
    const { parent, childModel } = setup();
    const all = await runUntil(parent, (e) => e.type === 'tool-call', true);
    expect(childModel.requests).toHaveLength(0);
    expect(all.map(eventCode)).toEqual(['iteration 1', 'call delegate', 'delegate interrupted', 'done cancelled']);
  });

  it("a call that times out cancels the child the same way: its running call ends interrupted, then the call fails with the timeout", async () => {
    const slow = hanging();
    const child = createAgent({ name: 'child', provider: scriptedModel([{ toolCalls: [call('c1', 'slow')] }]), model: 'm', tools: [slow] });
    const ask = delegateTool({ agent: child, name: 'delegate', description: 'd', timeoutMs: 20 });
    const parent = createAgent({ provider: scriptedModel([{ toolCalls: [call('p1', 'delegate', { task: 'work' })] }, { text: 'gave up' }]), model: 'm', tools: [ask] });
    const all = await lastValueFrom(parent.run({ message: 'go' }).pipe(toArray()));
    expect(all.map(eventCode).slice(1, 6)).toEqual(['call delegate', 'child> iteration 1', 'child> call slow', 'child> slow interrupted', 'delegate failed']);
    expect(all.find((e) => e.type === 'tool-result')).toMatchObject({ errorType: 'tool_timeout' });
    expect(slow.calls[0].signal.aborted).toBe(true);
  });
});
