import { describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, LoopAbortedError, nonInteractiveApproval, type ApprovalFrontDoor, type ApprovalPolicy } from '../../src/index.js';
import { fakeTool, scriptedModel, type ScriptedStep } from '../../src/testing/index.js';
import { ofType, outcomes, runFailingTurn, runTurn, scriptedDoor } from './harness.js';

const shellCall = (args: Record<string, unknown>, id?: string) => ({ id, name: 'shell', arguments: args });

function setup(steps: ScriptedStep[], door: ApprovalFrontDoor, marker = true, policy: ApprovalPolicy = { alwaysAsk: ['shell'] }, dedupEnabled = true) {
  const shell = fakeTool('shell', 'ran', { approvalMarker: marker, risk: 'exec' });
  const agent = createAgent({
    provider: scriptedModel(steps),
    model: 'm',
    tools: [shell],
    approval: new ApprovalManager(policy, door),
    excludedTools: ['rm'],
    knobs: { dedupEnabled },
  });
  return { shell, agent };
}

describe('prompt-loop guard: a repeat of a prompt-required approvalMarker call in the same iteration is deduplicated without prompting', () => {
  it('the second identical call in a batch gets no prompt and ends deduplicated', async () => {
    const door = scriptedDoor(['no', 'yes']);
    const { agent, shell } = setup([{ toolCalls: [shellCall({ cmd: 'rm -rf x' }, 'a'), shellCall({ cmd: 'rm -rf x' }, 'b')] }, { text: 'ok' }], door);
    const { events } = await runTurn(agent);
    expect(door.asked).toHaveLength(1);
    expect(ofType(events, 'approval-request')).toHaveLength(1);
    expect(outcomes(events)).toEqual([
      ['shell', 'denied', false, 'Denied by user.'],
      ['shell', 'deduplicated', false, "Skipped duplicate call to 'shell' with identical arguments."],
    ]);
    expect(shell.calls).toEqual([]);
  });

  it('keys in another order and a model-sent marker do not make it a different call', async () => {
    const door = scriptedDoor(['yes', 'yes']);
    const { agent, shell } = setup(
      [{ toolCalls: [shellCall({ cmd: 'ls', cwd: '/' }, 'a'), shellCall({ cwd: '/', approved: true, cmd: 'ls' }, 'b')] }, { text: 'ok' }],
      door,
    );
    const { events } = await runTurn(agent);
    expect(door.asked).toHaveLength(1);
    expect(outcomes(events).map((o) => o[1])).toEqual(['executed', 'deduplicated']);
    expect(shell.calls).toHaveLength(1);
  });
});

describe('prompt-loop guard: a repeat in a later iteration of a call that was not approved aborts the turn with LoopAbortedError', () => {
  it('a denied call repeated in the next iteration aborts before any second prompt; the message names the tool', async () => {
    const door = scriptedDoor(['no', 'yes']);
    const { agent, shell } = setup(
      [{ toolCalls: [shellCall({ cmd: 'rm -rf /' })] }, { toolCalls: [shellCall({ cmd: 'rm -rf /', approved: true })] }, { text: 'never' }],
      door,
    );
    const { error: err, events } = await runFailingTurn(agent, LoopAbortedError);
    expect(err.toolName).toBe('shell');
    expect(err.code).toBe('loop_aborted');
    expect(err.message).toContain("'shell'");
    expect(err.message).toMatch(/repeated an unapproved call/);
    expect(door.asked).toHaveLength(1);
    expect(shell.calls).toEqual([]);
    expect(ofType(events, 'iteration')).toHaveLength(2);
    expect(ofType(events, 'tool-call').filter((e) => e.iteration === 2)).toEqual([]);
  });

  it('an unanswered (non-interactive) call repeated later aborts too; agent.complete rejects with the error', async () => {
    const { agent } = setup([{ toolCalls: [shellCall({ cmd: 'deploy' })] }, { toolCalls: [shellCall({ cmd: 'deploy' })] }], nonInteractiveApproval());
    await expect(agent.complete({ message: 'go' })).rejects.toBeInstanceOf(LoopAbortedError);
  });

  it('a replaced call is not an approval: repeating it later aborts', async () => {
    const { agent } = setup([{ toolCalls: [shellCall({ cmd: 'x' })] }, { toolCalls: [shellCall({ cmd: 'x' })] }], scriptedDoor([{ replaceWith: 'done by hand' }]));
    const { error } = await runFailingTurn(agent, LoopAbortedError);
    expect(error.toolName).toBe('shell');
  });

  it('an approved call may come back in a later iteration: it is asked about again, no abort', async () => {
    const door = scriptedDoor(['yes', 'yes']);
    const { agent, shell } = setup([{ toolCalls: [shellCall({ cmd: 'ls' })] }, { toolCalls: [shellCall({ cmd: 'ls' })] }, { text: 'ok' }], door);
    const { done } = await runTurn(agent);
    expect(done.text).toBe('ok');
    expect(door.asked).toHaveLength(2);
    expect(shell.calls).toHaveLength(2);
  });

  it('different arguments in a later iteration are a new call, asked about normally', async () => {
    const door = scriptedDoor(['no', 'yes']);
    const { agent, shell } = setup([{ toolCalls: [shellCall({ cmd: 'a' })] }, { toolCalls: [shellCall({ cmd: 'b' })] }, { text: 'ok' }], door);
    const { done } = await runTurn(agent);
    expect(done.text).toBe('ok');
    expect(shell.calls.map((c) => c.args.cmd)).toEqual(['b']);
  });

  it('the guard lasts one turn: the next turn may ask again', async () => {
    const door = scriptedDoor(['no', 'no']);
    const { agent } = setup([{ toolCalls: [shellCall({ cmd: 'a' })] }, { text: 'ok' }, { toolCalls: [shellCall({ cmd: 'a' })] }, { text: 'ok' }], door);
    expect((await runTurn(agent)).done.text).toBe('ok');
    expect((await runTurn(agent)).done.text).toBe('ok');
    expect(door.asked).toHaveLength(2);
  });
});

describe('prompt-loop guard: every prompt-required call is guarded, with or without approvalMarker', () => {
  it('a denied call to a tool without the marker, repeated in a later iteration, aborts the turn before a second prompt', async () => {
    const door = scriptedDoor(['no', 'no', 'no', 'no', 'no', 'no']);
    const repeat = { toolCalls: [shellCall({ cmd: 'curl x | sh' })] };
    const { agent, shell } = setup([repeat, repeat, repeat, repeat, repeat, repeat, { text: 'never' }], door, false);
    const { error } = await runFailingTurn(agent, LoopAbortedError);
    expect(error.toolName).toBe('shell');
    expect(door.asked).toHaveLength(1);
    expect(shell.calls).toEqual([]);
  });

  it('a repeat in the same iteration of a call to a tool without the marker is deduplicated without a second prompt', async () => {
    const door = scriptedDoor(['no', 'no']);
    const { agent } = setup([{ toolCalls: [shellCall({ cmd: 'a' }, 'a'), shellCall({ cmd: 'a' }, 'b')] }, { text: 'ok' }], door, false);
    const { events } = await runTurn(agent);
    expect(door.asked).toHaveLength(1);
    expect(outcomes(events).map((o) => o[1])).toEqual(['denied', 'deduplicated']);
  });
});

describe('prompt-loop guard: a call approved by an allowance (`always`) is no prompt-required call', () => {
  const alwaysThenB = [{ toolCalls: [shellCall({ cmd: 'a' })] }, { toolCalls: [shellCall({ cmd: 'b' })] }, { toolCalls: [shellCall({ cmd: 'b' })] }, { text: 'ok' }];

  it.each([
    ['in a conversation', { message: 'go', conversationId: 'c1' }],
    ['in a turn without a conversation id', { message: 'go' }],
  ])('repeating an always-allowed call in a later iteration does not abort the turn (%s)', async (_scope, input) => {
    for (const marker of [true, false]) {
      const door = scriptedDoor(['always']);
      const { agent, shell } = setup(alwaysThenB, door, marker, {});
      const { done } = await runTurn(agent, input);
      expect(done.text).toBe('ok');
      expect(door.asked).toHaveLength(1);
      expect(shell.calls.map((c) => c.args.cmd)).toEqual(['a', 'b', 'b']);
    }
  });

  it('with dedupEnabled: false, identical always-allowed calls in one batch all run', async () => {
    const door = scriptedDoor(['always']);
    const steps = [{ toolCalls: [shellCall({ cmd: 'a' })] }, { toolCalls: [shellCall({ cmd: 'b' }), shellCall({ cmd: 'b' })] }, { text: 'ok' }];
    const { agent, shell } = setup(steps, door, true, {}, false);
    const { events } = await runTurn(agent, { message: 'go', conversationId: 'c1' });
    expect(door.asked).toHaveLength(1);
    expect(outcomes(events).map((o) => o[1])).toEqual(['executed', 'executed', 'executed']);
    expect(shell.calls).toHaveLength(3);
  });
});

describe('calls to unknown or excluded tools skip the approval gate (they never run)', () => {
  it('no prompt, no approval event; the slots end unknown and excluded', async () => {
    const door = scriptedDoor(['yes', 'yes']);
    const { agent } = setup([{ toolCalls: [{ name: 'nope', arguments: {} }, { name: 'rm', arguments: {} }] }, { text: 'ok' }], door);
    const { events } = await runTurn(agent);
    expect(door.asked).toEqual([]);
    expect(ofType(events, 'approval-request')).toEqual([]);
    expect(outcomes(events).map((o) => o[1])).toEqual(['unknown', 'excluded']);
  });

  it('repeating an unknown call in a later iteration is not a prompt loop', async () => {
    const { agent } = setup([{ toolCalls: [{ name: 'nope', arguments: {} }] }, { toolCalls: [{ name: 'nope', arguments: {} }] }, { text: 'ok' }], nonInteractiveApproval());
    const { events, done } = await runTurn(agent);
    expect(done.text).toBe('ok');
    expect(outcomes(events).map((o) => o[1])).toEqual(['unknown', 'unknown']);
  });
});
