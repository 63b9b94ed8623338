import { describe, expect, it } from 'vitest';
import { buildRequest } from '../../src/operators.js';
import { echo, setup } from './helpers.js';

describe('buildRequest: system text first, then the history; native providers get the shared specs', () => {
  it('sends instructions, recalled memory and pending notes as system messages before the history', () => {
    const { resolved, turn } = setup({ instructions: 'Be brief.', input: { memory: ['likes tea'] } });
    turn.notes.push('loop warning');
    const req = buildRequest(resolved, turn);
    expect(req.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Recalled memory (context for this turn only):\n- likes tea' },
      { role: 'system', content: 'loop warning' },
      { role: 'user', content: 'hi' },
    ]);
    expect(req.model).toBe('m');
  });

  it('pending notes go out once: the next request no longer carries them', () => {
    const { resolved, turn } = setup();
    turn.notes.push('once');
    buildRequest(resolved, turn);
    expect(buildRequest(resolved, turn).messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it("offers the tools' frozen specs by reference, never copies", () => {
    const tool = echo();
    const { resolved, turn } = setup({ tools: [tool] });
    const req = buildRequest(resolved, turn);
    expect(req.tools).toHaveLength(1);
    expect(req.tools![0]).toBe(tool.spec);
    expect(Object.isFrozen(req.tools![0].parameters)).toBe(true);
  });

  it('withTools false (the max-iteration summary) offers no tools', () => {
    const { resolved, turn } = setup({ tools: [echo()] });
    expect(buildRequest(resolved, turn, false).tools).toBeUndefined();
  });

  it('the request holds a copy of the history: later appends do not change a sent request', () => {
    const { resolved, turn } = setup();
    const req = buildRequest(resolved, turn);
    turn.history.push({ role: 'assistant', content: 'later' });
    expect(req.messages).toHaveLength(1);
  });
});
