import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/index.js';
import { buildRequest, iterationContext, nextSnapshot } from '../../src/operators.js';
import { echo, setup } from './helpers.js';

describe('buildRequest: system text first, then the history; native providers get the shared specs', () => {
  it("sends instructions, recalled memory and the snapshot's pending notes as system messages before the history", () => {
    const { turn, snapshot } = setup({ instructions: 'Be brief.', input: { memory: ['likes tea'] } });
    const withNotes = iterationContext(turn, { ...snapshot, iteration: 1, notes: ['loop warning'] });
    const req = buildRequest(withNotes);
    expect(req.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Recalled memory (context for this turn only):\n- likes tea' },
      { role: 'system', content: 'loop warning' },
      { role: 'user', content: 'hi' },
    ]);
    expect(req.model).toBe('m');
  });

  it('the request uses the iteration model, which a stage may have switched', () => {
    const { it: ctx } = setup();
    ctx.model = 'bigger';
    expect(buildRequest(ctx).model).toBe('bigger');
  });

  it('pending notes go out once: the next snapshot has none, so the next request no longer carries them', () => {
    const { turn, snapshot } = setup();
    const first = iterationContext(turn, { ...snapshot, iteration: 1, notes: ['once'] });
    expect(buildRequest(first).messages).toEqual([{ role: 'system', content: 'once' }, { role: 'user', content: 'hi' }]);
    // building reads the snapshot and changes nothing in it
    expect(first.snapshot.notes).toEqual(['once']);
    const next = nextSnapshot(first, { history: first.snapshot.history });
    expect(next.notes).toEqual([]);
    const second = iterationContext(turn, { ...next, iteration: next.iteration + 1 });
    expect(buildRequest(second).messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('nextSnapshot keeps the notes it is given (loop-detector warnings for the following request)', () => {
    const { it: first, turn } = setup();
    const next = nextSnapshot(first, { notes: ['warned'] });
    expect(buildRequest(iterationContext(turn, { ...next, iteration: 2 })).messages[0]).toEqual({ role: 'system', content: 'warned' });
  });

  it("offers the tools' frozen specs by reference, never copies", () => {
    const tool = echo();
    const { it: ctx } = setup({ tools: [tool] });
    const req = buildRequest(ctx);
    expect(req.tools).toHaveLength(1);
    expect(req.tools![0]).toBe(tool.spec);
    expect(Object.isFrozen(req.tools![0].parameters)).toBe(true);
  });

  it('withTools false (the max-iteration summary) offers no tools', () => {
    const { it: ctx } = setup({ tools: [echo()] });
    expect(buildRequest(ctx).tools).toHaveLength(1);
    expect(buildRequest(ctx, false).tools).toBeUndefined();
  });

  it('the request holds a copy of the history: later appends do not change a sent request', () => {
    const { turn, snapshot } = setup();
    const history: ChatMessage[] = [...snapshot.history];
    const req = buildRequest(iterationContext(turn, { ...snapshot, history, iteration: 1 }));
    history.push({ role: 'assistant', content: 'later' });
    expect(req.messages).toHaveLength(1);
  });
});
