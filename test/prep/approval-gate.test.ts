import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApprovalManager, createAgent, defineTool, nonInteractiveApproval, POLICY_DENIAL_TEXT } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { ofType, outcomes, runTurn, scriptedDoor, toolContents } from './harness.js';

function setup(answers: Parameters<typeof scriptedDoor>[0], calls: { id: string; name: string; arguments: Record<string, unknown> }[] = [{ id: 'w', name: 'write', arguments: { path: 'a.txt' } }]) {
  const write = fakeTool('write', 'written');
  const read = fakeTool('file_read', 'contents');
  const door = scriptedDoor(answers);
  const agent = createAgent({
    provider: scriptedModel([{ toolCalls: calls }, { text: 'ok' }]),
    model: 'm',
    tools: [write, read],
    approval: new ApprovalManager({}, door),
  });
  return { agent, write, read, door };
}

describe('approval gate: deny → denied, replacement → replaced; neither executes', () => {
  it("an operator's no ends the slot denied with 'Denied by user.' and the tool never runs", async () => {
    const { agent, write } = setup(['no']);
    const { events, done } = await runTurn(agent);
    expect(write.calls).toEqual([]);
    expect(outcomes(events)).toEqual([['write', 'denied', false, 'Denied by user.']]);
    expect(toolContents(done!.history)).toEqual(['Denied by user.']);
  });

  it('a replacement ends the slot replaced with success and the operator text; the tool never runs', async () => {
    const { agent, write } = setup([{ replaceWith: 'The file was written by hand.' }]);
    const { events, done } = await runTurn(agent);
    expect(write.calls).toEqual([]);
    expect(outcomes(events)).toEqual([['write', 'replaced', true, 'The file was written by hand.']]);
    expect(toolContents(done!.history)).toEqual(['The file was written by hand.']);
  });

  it('an unanswerable prompt ends the slot denied with the policy-denial text', async () => {
    const { agent, write } = setup([null]);
    const { events } = await runTurn(agent);
    expect(write.calls).toEqual([]);
    expect(outcomes(events)).toEqual([['write', 'denied', false, POLICY_DENIAL_TEXT]]);
  });

  it('yes runs the call; the prompted slot keeps its tool-call/tool-result pair', async () => {
    const { agent, write } = setup(['yes']);
    const { events } = await runTurn(agent);
    expect(write.calls).toHaveLength(1);
    expect(ofType(events, 'tool-call').map((e) => e.id)).toEqual(['w']);
    expect(ofType(events, 'tool-result').map((e) => [e.id, e.outcome])).toEqual([['w', 'executed']]);
  });

  it('filled slots keep slot order and pairing next to executed ones', async () => {
    const calls = [
      { id: 'a', name: 'write', arguments: { path: '1' } },
      { id: 'b', name: 'file_read', arguments: { path: '2' } },
      { id: 'c', name: 'write', arguments: { path: '3' } },
      { id: 'd', name: 'write', arguments: { path: '4' } },
    ];
    const { agent, door } = setup(['no', { replaceWith: 'R' }, 'yes'], calls);
    const { events, done } = await runTurn(agent);
    expect(door.asked.map((r) => r.arguments)).toEqual([{ path: '1' }, { path: '3' }, { path: '4' }]);
    expect(toolContents(done!.history)).toEqual(['Denied by user.', 'contents', 'R', 'written']);
    for (const id of ['a', 'b', 'c', 'd']) {
      expect(events.filter((e) => (e.type === 'tool-call' || e.type === 'tool-result') && e.id === id).map((e) => e.type)).toEqual([
        'tool-call',
        'tool-result',
      ]);
    }
  });

  it('invalid arguments are rejected before the gate: no prompt for a call that could not run', async () => {
    const strict = defineTool({ name: 'strict', description: 's', parameters: z.object({ n: z.number() }), execute: () => 'ran' });
    const door = scriptedDoor(['yes']);
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ name: 'strict', arguments: { n: 'x' } }] }, { text: 'ok' }]),
      model: 'm',
      tools: [strict],
      approval: new ApprovalManager({}, door),
    });
    const { events } = await runTurn(agent);
    expect(door.asked).toEqual([]);
    expect(outcomes(events)[0][1]).toBe('invalid-arguments');
  });

  it('no approval manager = no gate: every call runs without a prompt', async () => {
    const write = fakeTool('write', 'written');
    const agent = createAgent({ provider: scriptedModel([{ toolCalls: [{ name: 'write', arguments: {} }] }, { text: 'ok' }]), model: 'm', tools: [write] });
    const { events } = await runTurn(agent);
    expect(write.calls).toHaveLength(1);
    expect(ofType(events, 'approval-request')).toEqual([]);
  });

  it('an auto-approved call runs without any approval event', async () => {
    const { agent, read } = setup([], [{ id: 'r', name: 'file_read', arguments: {} }]);
    const { events } = await runTurn(agent);
    expect(read.calls).toHaveLength(1);
    expect(ofType(events, 'approval-request')).toEqual([]);
  });

  it('the non-interactive front door denies by policy', async () => {
    const write = fakeTool('write', 'written');
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ name: 'write', arguments: {} }] }, { text: 'ok' }]),
      model: 'm',
      tools: [write],
      approval: new ApprovalManager({}, nonInteractiveApproval()),
    });
    const { events } = await runTurn(agent);
    expect(write.calls).toEqual([]);
    expect(outcomes(events)).toEqual([['write', 'denied', false, POLICY_DENIAL_TEXT]]);
  });
});
