import { describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, isTurnEvent, type ApprovalFrontDoor, type PreparedCall } from '../../src/index.js';
import { from, lastValueFrom, toArray } from 'rxjs';
import { createTurnContext, dispatchMode, iterationContext, prepareCalls, startSnapshot } from '../../src/operators.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { runTurn, scriptedDoor } from '../prep/harness.js';

/** Two slow tools that record how many ran at once. */
function concurrencyProbe() {
  let running = 0;
  let peak = 0;
  const slow = () => {
    running++;
    peak = Math.max(peak, running);
    return new Promise<string>((resolve) =>
      setImmediate(() => {
        running--;
        resolve('done');
      }),
    );
  };
  return { tools: [fakeTool('deploy', slow), fakeTool('file_read', slow)], peak: () => peak };
}

function run(door: ApprovalFrontDoor, policy = {}) {
  const probe = concurrencyProbe();
  const agent = createAgent({
    provider: scriptedModel([
      { toolCalls: [{ name: 'file_read', arguments: { p: 1 } }, { name: 'deploy', arguments: {} }, { name: 'file_read', arguments: { p: 2 } }] },
      { text: 'ok' },
    ]),
    model: 'm',
    tools: probe.tools,
    approval: new ApprovalManager(policy, door),
    knobs: { parallelTools: true },
  });
  return { agent, probe };
}

describe('any call in the batch that needs a prompt makes the whole batch sequential', () => {
  it('with parallelTools on, an approved prompt still runs the batch one call at a time', async () => {
    const { agent, probe } = run(scriptedDoor(['yes']));
    await runTurn(agent);
    expect(probe.peak()).toBe(1);
  });

  it('a denied prompt makes the batch sequential too (the prompt, not the outcome, decides)', async () => {
    const { agent, probe } = run(scriptedDoor(['no']));
    await runTurn(agent);
    expect(probe.peak()).toBe(1);
  });

  it('control: the same batch without a prompt runs in parallel', async () => {
    const { agent, probe } = run(scriptedDoor([]), { autoApprove: ['*'] });
    await runTurn(agent);
    expect(probe.peak()).toBeGreaterThan(1);
  });

  it('preparation marks every call that needed a prompt as prompted (the flag dispatch reads), whatever the answer', async () => {
    const { agent } = run(scriptedDoor(['no']));
    const turn = createTurnContext(agent.resolved, { message: 'go' });
    const iteration = iterationContext(turn, { ...startSnapshot(turn, { message: 'go' }), iteration: 1 });
    const calls = ['file_read', 'deploy', 'file_read'].map((name, slot) => ({ slot, id: `c${slot}`, name, args: { slot }, rawArguments: '{}' }));
    const values = await lastValueFrom(from(calls).pipe(prepareCalls(iteration, agent.resolved.prepSteps), toArray()));
    const prepared = values.filter((v): v is PreparedCall => !isTurnEvent(v));
    // the one prompt's request and decision travel in the same stream, before the call it decided
    expect(values.map((v) => (isTurnEvent(v) ? v.type : v.name))).toEqual(['file_read', 'approval-request', 'approval-decision', 'deploy', 'file_read']);
    expect(prepared.map((p) => [p.name, p.prompted === true, p.filled?.outcome])).toEqual([
      ['file_read', false, undefined],
      ['deploy', true, 'denied'],
      ['file_read', false, undefined],
    ]);
    expect(dispatchMode(agent.resolved.knobs, prepared)).toBe('sequential');
    expect(dispatchMode(agent.resolved.knobs, prepared.map(({ prompted: _p, ...rest }) => rest))).toBe('parallel');
  });
});
