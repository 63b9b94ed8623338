import { describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, DENIED_BY_USER_TEXT, nonInteractiveApproval, POLICY_DENIAL_TEXT } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { outcomes, runTurn } from '../prep/harness.js';

describe("texts: an operator's denial is 'Denied by user.'; no operator → the policy-denial text", () => {
  it("the operator's denial text is exactly 'Denied by user.'", () => {
    expect(DENIED_BY_USER_TEXT).toBe('Denied by user.');
  });

  it('the policy-denial text says the call was not executed, needs approval, no operator answered, policy denied it, and it was not the user\u2019s decision', () => {
    expect(POLICY_DENIAL_TEXT).toMatch(/not executed/i);
    expect(POLICY_DENIAL_TEXT).toMatch(/needs approval/);
    expect(POLICY_DENIAL_TEXT).toMatch(/no operator answered/);
    expect(POLICY_DENIAL_TEXT).toMatch(/denied by policy/);
    expect(POLICY_DENIAL_TEXT).toMatch(/not the user.s decision/);
  });

  it('the policy-denial text reveals no policy internals (levels, lists, tool names)', () => {
    for (const word of ['full', 'readonly', 'read-only', 'supervised', 'autoApprove', 'alwaysAsk', 'allow', 'list', 'level', 'session', '*']) {
      expect(POLICY_DENIAL_TEXT.toLowerCase()).not.toContain(word.toLowerCase());
    }
  });

  it('the policy-denial text is the same whatever the policy, tool or arguments', async () => {
    const texts = new Set<string>();
    for (const policy of [{}, { alwaysAsk: ['*'] }, { autoApprove: [] as string[], alwaysAsk: ['secret_tool'] }]) {
      for (const name of ['secret_tool', 'deploy']) {
        const agent = createAgent({
          provider: scriptedModel([{ toolCalls: [{ name, arguments: { key: 'v' } }] }, { text: 'ok' }]),
          model: 'm',
          tools: [fakeTool('secret_tool', 'x'), fakeTool('deploy', 'x')],
          approval: new ApprovalManager(policy, nonInteractiveApproval()),
        });
        const { events } = await runTurn(agent);
        texts.add(outcomes(events)[0][3]);
      }
    }
    expect([...texts]).toEqual([POLICY_DENIAL_TEXT]);
  });

  it('an unanswerable backchannel, a failing front door and a timeout all give the policy text, never the user text', async () => {
    const answers = [() => null, () => Promise.reject(new Error('socket closed')), () => 'maybe' as never, () => { throw new Error('door bug'); }];
    for (const answer of answers) {
      const agent = createAgent({
        provider: scriptedModel([{ toolCalls: [{ name: 'deploy', arguments: {} }] }, { text: 'ok' }]),
        model: 'm',
        tools: [fakeTool('deploy', 'x')],
        approval: new ApprovalManager({}, { name: 'door', ask: answer }),
      });
      const { events } = await runTurn(agent);
      expect(outcomes(events)[0]).toEqual(['deploy', 'denied', false, POLICY_DENIAL_TEXT]);
    }
  });
});
