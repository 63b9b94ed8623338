import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, nonInteractiveApproval, POLICY_DENIAL_TEXT } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { outcomes, runTurn } from '../prep/harness.js';

describe('non-interactive front door: no operator, every prompt-required call is denied by policy', () => {
  it('decides no, by policy, not by an operator', async () => {
    const m = new ApprovalManager({}, nonInteractiveApproval());
    const d = await lastValueFrom(m.decide({ requestId: 'r', toolName: 'x', arguments: {}, argumentsSummary: '', channel: 'ci' }));
    expect(d).toEqual({ decision: 'no', decidedBy: 'policy', byOperator: false });
  });

  it('is the default front door of an ApprovalManager', () => {
    expect(new ApprovalManager().frontDoor).toBe(nonInteractiveApproval());
  });

  it('denies every prompt-required call of a batch and runs the auto-approved ones', async () => {
    const deploy = fakeTool('deploy', 'd');
    const read = fakeTool('file_read', 'r');
    const agent = createAgent({
      provider: scriptedModel([
        { toolCalls: [{ name: 'deploy', arguments: { a: 1 } }, { name: 'file_read', arguments: {} }, { name: 'deploy', arguments: { a: 2 } }] },
        { text: 'ok' },
      ]),
      model: 'm',
      tools: [deploy, read],
      approval: new ApprovalManager({}, nonInteractiveApproval()),
    });
    const { events } = await runTurn(agent);
    expect(deploy.calls).toEqual([]);
    expect(read.calls).toHaveLength(1);
    expect(outcomes(events)).toEqual([
      ['deploy', 'denied', false, POLICY_DENIAL_TEXT],
      ['file_read', 'executed', true, 'r'],
      ['deploy', 'denied', false, POLICY_DENIAL_TEXT],
    ]);
  });
});
