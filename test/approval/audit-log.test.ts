import { lastValueFrom, NEVER } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, nonInteractiveApproval, type ApprovalAuditEntry } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { runTurn, scriptedDoor } from '../prep/harness.js';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5, 600);

function agentFor(approval: ApprovalManager, calls: { name: string; arguments: Record<string, unknown> }[], tools = [fakeTool('deploy', 'ok'), fakeTool('file_read', 'r')]) {
  let t = T0;
  return createAgent({
    provider: scriptedModel([{ toolCalls: calls }, { text: 'ok' }]),
    model: 'm',
    tools,
    approval,
    clock: { now: () => (t += 1000) },
  });
}

describe('audit log: every prompted decision is appended with timestamp (ISO 8601), tool, argument summary, decision and deciding channel', () => {
  it('records each prompted decision in order with all its fields', async () => {
    const m = new ApprovalManager({}, scriptedDoor(['yes', 'no', 'always', { replaceWith: 'r' }], 'ops-console'));
    const agent = agentFor(m, [
      { name: 'deploy', arguments: { env: 'prod', token: 'hunter2' } },
      { name: 'deploy', arguments: { env: 'stage' } },
      { name: 'deploy', arguments: { env: 'dev' } },
      { name: 'deploy', arguments: { env: 'qa' } },
    ]);
    const { events } = await runTurn(agent, { message: 'go', ingress: { channel: 'slack' } });
    const requests = events.flatMap((e) => (e.type === 'approval-request' ? [e.requestId] : []));
    // `always` allowed deploy for the session, so the fourth call needed no prompt
    expect(m.auditLog.map((e) => [e.toolName, e.argumentsSummary, e.decision, e.decidedBy, e.byOperator, e.channel])).toEqual([
      ['deploy', 'env: prod, token: [redacted]', 'yes', 'ops-console', true, 'slack'],
      ['deploy', 'env: stage', 'no', 'ops-console', true, 'slack'],
      ['deploy', 'env: dev', 'always', 'ops-console', true, 'slack'],
    ]);
    expect(m.auditLog.map((e) => e.requestId)).toEqual(requests);
    for (const entry of m.auditLog) {
      expect(entry.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(new Date(entry.timestamp).toISOString()).toBe(entry.timestamp);
    }
    expect(Date.parse(m.auditLog[0].timestamp)).toBeGreaterThan(T0);
  });

  it('timestamps come from the agent clock', async () => {
    const m = new ApprovalManager({}, scriptedDoor(['yes']));
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ name: 'deploy', arguments: {} }] }, { text: 'ok' }]),
      model: 'm',
      tools: [fakeTool('deploy', 'ok')],
      approval: m,
      clock: { now: () => T0 },
    });
    await runTurn(agent);
    expect(m.auditLog[0].timestamp).toBe('2026-01-02T03:04:05.600Z');
  });

  it("a policy denial (nobody answered) is recorded as 'no' decided by 'policy'", async () => {
    const m = new ApprovalManager({}, nonInteractiveApproval());
    await runTurn(agentFor(m, [{ name: 'deploy', arguments: { env: 'prod' } }]));
    expect(m.auditLog).toMatchObject([{ toolName: 'deploy', decision: 'no', decidedBy: 'policy', byOperator: false, channel: 'cli' }]);
  });

  it('onAudit receives each entry as it is recorded; a throwing sink changes nothing', async () => {
    const sunk: ApprovalAuditEntry[] = [];
    const m = new ApprovalManager({}, scriptedDoor(['yes', 'yes']), {
      onAudit: (entry) => {
        sunk.push(entry);
        throw new Error('disk full');
      },
    });
    const { events } = await runTurn(agentFor(m, [{ name: 'deploy', arguments: { a: 1 } }, { name: 'deploy', arguments: { a: 2 } }]));
    expect(sunk).toEqual(m.auditLog);
    expect(events.filter((e) => e.type === 'tool-result').map((e) => (e as { outcome: string }).outcome)).toEqual(['executed', 'executed']);
  });

  it('keeps at most maxAuditEntries, dropping the oldest', async () => {
    const m = new ApprovalManager({}, scriptedDoor(['no', 'no', 'no']), { maxAuditEntries: 2 });
    await runTurn(agentFor(m, [1, 2, 3].map((n) => ({ name: 'deploy', arguments: { n } }))));
    expect(m.auditLog.map((e) => e.argumentsSummary)).toEqual(['n: 2', 'n: 3']);
  });
});

describe('the audit log records decisions, not executions', () => {
  it('an auto-approved call runs with no entry; an approved call that then fails keeps its single yes entry', async () => {
    const failing = fakeTool('deploy', { success: false, output: 'boom' });
    const m = new ApprovalManager({}, scriptedDoor(['yes']));
    await runTurn(agentFor(m, [{ name: 'file_read', arguments: {} }, { name: 'deploy', arguments: {} }], [failing, fakeTool('file_read', 'r')]));
    expect(m.auditLog.map((e) => [e.toolName, e.decision])).toEqual([['deploy', 'yes']]);
  });

  it('a prompt withdrawn before anyone answered records nothing', async () => {
    const m = new ApprovalManager({}, { name: 'slow', ask: () => NEVER });
    const sub = m.decide({ requestId: 'r', toolName: 'deploy', arguments: {}, argumentsSummary: '', channel: 'cli' }).subscribe();
    sub.unsubscribe();
    expect(m.auditLog).toEqual([]);
  });

  it('decide() alone records exactly one entry per decision', async () => {
    const m = new ApprovalManager({}, scriptedDoor(['yes']));
    await lastValueFrom(m.decide({ requestId: 'r1', toolName: 'deploy', arguments: {}, argumentsSummary: 's', channel: 'web' }, { now: () => 0 }));
    expect(m.auditLog).toEqual([
      { timestamp: '1970-01-01T00:00:00.000Z', requestId: 'r1', toolName: 'deploy', argumentsSummary: 's', decision: 'yes', decidedBy: 'test-door', byOperator: true, channel: 'web' },
    ]);
  });
});
