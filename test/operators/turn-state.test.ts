import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/index.js';
import { setup } from './helpers.js';

describe('createTurnState: the per-turn state a hand-made loop threads through the operators', () => {
  it('appends the user message to a copy of the input history', () => {
    const input: ChatMessage[] = [{ role: 'user', content: 'before' }, { role: 'assistant', content: 'ok' }];
    const { turn } = setup({ input: { history: input, message: 'now' } });
    expect(turn.history).toEqual([...input, { role: 'user', content: 'now' }]);
    expect(input).toHaveLength(2);
  });

  it('takes the turn id from the ingress when given, else from the id generator', () => {
    expect(setup({ input: { ingress: { channel: 'web', turnId: 't-1' } } }).turn.turnId).toBe('t-1');
    const { turn } = setup();
    expect(turn.turnId).toMatch(/^gen-/);
    expect(turn.ingress).toMatchObject({ channel: 'cli', turnId: turn.turnId, agentAlias: 'agent' });
  });

  it('cancelled() follows the input signal', () => {
    const ac = new AbortController();
    const { turn } = setup({ input: { signal: ac.signal } });
    expect(turn.cancelled()).toBe(false);
    ac.abort();
    expect(turn.cancelled()).toBe(true);
  });

  it('starts at iteration 0 with the agent model and empty steering, notes and receipts', () => {
    const { turn } = setup();
    expect([turn.iteration, turn.model, turn.steering, turn.notes, turn.receipts]).toEqual([0, 'm', [], [], []]);
  });
});
