import { describe, expect, it } from 'vitest';
import { ApprovalManager, backchannelApproval, createAgent, nonInteractiveApproval, type ApprovalFrontDoor } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { scrubValue } from '../../src/results/scrub-value.js';
import { ofType, runTurn, scriptedDoor } from '../prep/harness.js';
import { leaksOf } from '../fixtures/leak-search.js';

function agentWith(door: ApprovalFrontDoor, args: Record<string, unknown> = { path: '/etc/hosts', password: 'pw' }) {
  let n = 0;
  return createAgent({
    provider: scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'file_write', arguments: args }] }, { text: 'ok' }]),
    model: 'm',
    tools: [fakeTool('file_write', 'ok')],
    approval: new ApprovalManager({}, door),
    ids: () => `id-${++n}`,
  });
}

describe('requests and decisions appear in the turn as approval-request and approval-decision events', () => {
  it('an operator decision: request (tool, summary) then decision (decidedBy = the front door, byOperator) with the same requestId, before the card', async () => {
    const { events } = await runTurn(agentWith(scriptedDoor(['yes'], 'ops')));
    const types = events.map((e) => e.type).filter((t) => t !== 'iteration' && t !== 'done' && t !== 'text-delta');
    expect(types).toEqual(['approval-request', 'approval-decision', 'tool-call', 'tool-result']);
    const [request] = ofType(events, 'approval-request');
    const [decision] = ofType(events, 'approval-decision');
    expect(request).toEqual({
      type: 'approval-request',
      requestId: request.requestId,
      toolName: 'file_write',
      argumentsSummary: 'path: /etc/hosts, password: [redacted]',
      arguments: { path: '/etc/hosts', password: '[REDACTED]' }, // a secret key's value is masked whole, however short
    });
    expect(decision).toEqual({ type: 'approval-decision', requestId: request.requestId, toolName: 'file_write', decision: 'yes', decidedBy: 'ops', byOperator: true });
  });

  it.each([
    ['no', 'no'],
    ['always', 'always'],
    [{ replaceWith: 'x' }, 'replace'],
  ] as const)('answer %j → decision %s', async (answer, decision) => {
    const { events } = await runTurn(agentWith(scriptedDoor([answer])));
    expect(ofType(events, 'approval-decision')[0]).toMatchObject({ decision, byOperator: true, decidedBy: 'test-door' });
  });

  it('the request event carries what the front door was asked', async () => {
    const door = scriptedDoor(['yes']);
    const { events } = await runTurn(agentWith(door));
    const [request] = ofType(events, 'approval-request');
    expect(door.asked).toEqual([
      { requestId: request.requestId, toolName: 'file_write', arguments: { path: '/etc/hosts', password: 'pw' }, argumentsSummary: request.argumentsSummary, channel: 'cli', turnId: expect.any(String) },
    ]);
  });
});

describe('the approval-request event carries the full arguments, credential-shaped values masked (it comes before the tool-call event)', () => {
  it('every argument, nothing cut, nested values included; secrets masked as scrubValue masks them', async () => {
    const token = `sk-${'a'.repeat(40)}`;
    const content = `#!/bin/sh\n${'echo hello; '.repeat(20)}`; // longer than the summary's 80 characters
    const args = { path: 'run.sh', content, password: 'correct horse', headers: { Authorization: `Bearer ${token}` }, note: `key ${token}` };
    const door = scriptedDoor(['no']);
    const { events } = await runTurn(agentWith(door, args));
    const [request] = ofType(events, 'approval-request');
    expect(request.arguments).toEqual(scrubValue(args));
    expect(request.arguments).toMatchObject({ path: 'run.sh', content, password: '[REDACTED]' });
    expect(leaksOf(request.arguments, token)).toEqual([]);
    expect(request.argumentsSummary).toContain('more characters'); // the summary stays short
    expect(door.asked[0].arguments).toEqual(args); // the front door's request keeps them real
  });
});

describe("non-interactive and policy decisions also emit approval events, with decidedBy 'policy' and byOperator false", () => {
  it('non-interactive: a request, then a policy decision no', async () => {
    const { events } = await runTurn(agentWith(nonInteractiveApproval()));
    expect(ofType(events, 'approval-request')).toHaveLength(1);
    expect(ofType(events, 'approval-decision')).toEqual([
      { type: 'approval-decision', requestId: ofType(events, 'approval-request')[0].requestId, toolName: 'file_write', decision: 'no', decidedBy: 'policy', byOperator: false },
    ]);
  });

  it('an unanswerable backchannel (null) is a policy decision too', async () => {
    const { events } = await runTurn(agentWith(backchannelApproval(() => null)));
    expect(ofType(events, 'approval-decision')[0]).toMatchObject({ decision: 'no', decidedBy: 'policy', byOperator: false });
  });
});
