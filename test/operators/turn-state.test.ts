import { describe, expect, it } from 'vitest';
import { TURN_SNAPSHOT_VERSION, type ChatMessage } from '../../src/index.js';
import { EMPTY_LOOP_WINDOW, iterationContext, nextSnapshot, steer } from '../../src/operators.js';
import { setup } from './helpers.js';

describe('createTurnContext and startSnapshot: the services and the data a hand-made loop threads through the operators', () => {
  it('the start snapshot appends the user message to a copy of the input history', () => {
    const input: ChatMessage[] = [{ role: 'user', content: 'before' }, { role: 'assistant', content: 'ok' }];
    const { snapshot } = setup({ input: { history: input, message: 'now' } });
    expect(snapshot.history).toEqual([...input, { role: 'user', content: 'now' }]);
    expect(input).toHaveLength(2);
  });

  it('takes the turn id from the ingress when given, else from the id generator', () => {
    const given = setup({ input: { ingress: { channel: 'web', turnId: 't-1' } } });
    expect([given.turn.turnId, given.snapshot.turnId]).toEqual(['t-1', 't-1']);
    const { turn, snapshot } = setup();
    expect(turn.turnId).toMatch(/^gen-/);
    expect(turn.ingress).toMatchObject({ channel: 'cli', turnId: turn.turnId, agentAlias: 'agent' });
    expect(snapshot.ingress).toEqual(turn.ingress);
  });

  it('cancelled() follows the input signal', () => {
    const ac = new AbortController();
    const { turn } = setup({ input: { signal: ac.signal } });
    expect(turn.cancelled()).toBe(false);
    ac.abort();
    expect(turn.cancelled()).toBe(true);
  });

  it('starts at iteration 0 with the agent model and empty steering, notes and receipts', () => {
    const { snapshot, turn } = setup();
    expect([snapshot.iteration, snapshot.model, snapshot.steering, snapshot.notes, snapshot.receipts]).toEqual([0, 'm', [], [], []]);
    expect(snapshot).toMatchObject({
      version: TURN_SNAPSHOT_VERSION,
      agent: 'agent',
      malformedRetries: 0,
      promptSignatures: {},
      loopWindow: EMPTY_LOOP_WINDOW,
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    expect(turn.hasSteering()).toBe(false);
  });

  it('the start snapshot is plain data: a JSON round trip gives an equal snapshot', () => {
    const { snapshot } = setup({ input: { conversationId: 'conv', history: [{ role: 'assistant', content: 'earlier' }] } });
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  it('steering waits on the turn until taken; taking empties it', () => {
    const { turn } = setup();
    steer(turn, 'a');
    steer(turn, 'b');
    expect(turn.hasSteering()).toBe(true);
    expect(turn.takeSteering()).toEqual(['a', 'b']);
    expect([turn.hasSteering(), turn.takeSteering()]).toEqual([false, []]);
  });
});

describe('iterationContext and nextSnapshot: what an iteration may change, folded into the snapshot it ends with', () => {
  it('the context copies the model and prompt signatures; the next snapshot takes their changed values', () => {
    const { it: ctx, snapshot } = setup();
    expect([ctx.iteration, ctx.model, ctx.promptSignatures.size]).toEqual([1, 'm', 0]);
    ctx.model = 'other';
    ctx.promptSignatures.set('sig', { iteration: 1, approved: true });
    const next = nextSnapshot(ctx, { receipts: ['r'] });
    expect(next).toMatchObject({ iteration: 1, model: 'other', promptSignatures: { sig: { iteration: 1, approved: true } }, receipts: ['r'] });
    expect([snapshot.model, snapshot.promptSignatures]).toEqual(['m', {}]);
  });

  it("signatures no stage read pass to the next snapshot as they were; read ones are copied, changes included", () => {
    const { it: ctx, turn } = setup();
    ctx.promptSignatures.set('sig', { iteration: 1, approved: false });
    const first = nextSnapshot(ctx, {});
    // an iteration whose stages never touch the signatures (no call that prompts)
    const untouched = iterationContext(turn, { ...first, iteration: 2 });
    const second = nextSnapshot(untouched, { receipts: ['r'] });
    expect(second.promptSignatures).toEqual({ sig: { iteration: 1, approved: false } });
    // one that reads and adds: both, the snapshot it started from unchanged
    const read = iterationContext(turn, { ...second, iteration: 3 });
    expect(read.promptSignatures.get('sig')).toEqual({ iteration: 1, approved: false });
    read.promptSignatures.set('other', { iteration: 3, approved: true });
    expect(nextSnapshot(read, {}).promptSignatures).toEqual({ sig: { iteration: 1, approved: false }, other: { iteration: 3, approved: true } });
    expect(second.promptSignatures).toEqual({ sig: { iteration: 1, approved: false } });
    // none at all: the empty record
    expect(nextSnapshot(iterationContext(turn, { ...setup().snapshot, iteration: 1 }), {}).promptSignatures).toEqual({});
  });

  it('a context made from that snapshot starts from its values', () => {
    const { it: ctx, turn } = setup();
    ctx.model = 'other';
    const next = nextSnapshot(ctx, {});
    const second = iterationContext(turn, { ...next, iteration: next.iteration + 1 });
    expect([second.iteration, second.model]).toEqual([2, 'other']);
  });
});
