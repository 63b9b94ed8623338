import { lastValueFrom } from 'rxjs';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, cliApproval, createAgent, POLICY_DENIAL_TEXT, type ApprovalRequest } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { ofType, runTurn } from '../prep/harness.js';
import { parseCliAnswer } from '../../src/approval/cli-approval.js';

const request = (n = 1): ApprovalRequest => ({ requestId: `r${n}`, toolName: 'shell', arguments: { cmd: 'ls' }, argumentsSummary: 'cmd: ls', channel: 'cli' });

function streams() {
  const input = new PassThrough();
  let written = '';
  const output = { write: (text: string) => (written += text) };
  return { input, output, written: () => written };
}

describe('CLI front door: y/yes → yes, a/always → always, anything else or empty input → the operator\'s no', () => {
  it.each([
    ['y', 'yes'],
    ['yes', 'yes'],
    [' YES ', 'yes'],
    ['a', 'always'],
    ['always', 'always'],
    ['Always', 'always'],
    ['n', 'no'],
    ['no', 'no'],
    ['', 'no'],
    ['sure', 'no'],
    ['yes please', 'no'],
  ])('the answer %j is %s', async (line, decision) => {
    const { input, output } = streams();
    const m = new ApprovalManager({}, cliApproval({ input, output }));
    const decided = lastValueFrom(m.decide(request()));
    input.write(`${line}\n`);
    expect(await decided).toEqual({ decision, decidedBy: 'cli', byOperator: true });
  });

  it('writes the tool and its argument summary, then the choices', async () => {
    const { input, output, written } = streams();
    const decided = lastValueFrom(new ApprovalManager({}, cliApproval({ input, output })).decide(request()));
    input.write('y\r\n');
    await decided;
    expect(written()).toContain('shell (cmd: ls)');
    expect(written()).toMatch(/\[y\]es \/ \[n\]o \/ \[a\]lways: $/);
  });

});

describe('CLI front door: EOF or a read error is no operator\'s answer → no, denied by policy (byOperator: false)', () => {
  const byPolicy = { decision: 'no', decidedBy: 'policy', byOperator: false };

  it('end of input is no, decided by policy, and audited as such', async () => {
    const { input, output } = streams();
    const m = new ApprovalManager({}, cliApproval({ input, output }));
    const decided = lastValueFrom(m.decide(request()));
    input.end();
    expect(await decided).toEqual(byPolicy);
    expect(m.auditLog[0]).toMatchObject({ decision: 'no', decidedBy: 'policy', byOperator: false });
  });

  it('an input that already ended is no by policy at once', async () => {
    const input = Readable.from([]);
    input.resume();
    await new Promise((resolve) => input.once('end', resolve));
    const d = await lastValueFrom(new ApprovalManager({}, cliApproval({ input, output: { write: () => true } })).decide(request()));
    expect(d).toEqual(byPolicy);
  });

  it('a read error is no by policy', async () => {
    const { input, output } = streams();
    const decided = lastValueFrom(new ApprovalManager({}, cliApproval({ input, output })).decide(request()));
    input.destroy(new Error('EIO'));
    expect(await decided).toEqual(byPolicy);
  });

  it('EOF in the middle of a line is no by policy, even when the partial line says y', async () => {
    const { input, output } = streams();
    const decided = lastValueFrom(new ApprovalManager({}, cliApproval({ input, output })).decide(request()));
    input.end('y');
    expect(await decided).toEqual(byPolicy);
  });

  it('in a turn, a call denied at end of input gets the policy text, not "Denied by user."', async () => {
    const { input, output } = streams();
    input.end();
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ name: 'deploy', arguments: { env: 'prod' } }] }, { text: 'ok' }]),
      model: 'm',
      tools: [fakeTool('deploy', 'deployed')],
      approval: new ApprovalManager({}, cliApproval({ input, output })),
    });
    const { events } = await runTurn(agent);
    expect(ofType(events, 'approval-decision')[0]).toMatchObject(byPolicy);
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ outcome: 'denied', output: POLICY_DENIAL_TEXT });
  });
});

describe('CLI front door: answers and reading', () => {

  it('answers piped together are read one per question, none lost', async () => {
    const { input, output } = streams();
    const m = new ApprovalManager({}, cliApproval({ input, output }));
    input.write('y\nn\na\n');
    const answers = [];
    for (let n = 1; n <= 3; n++) answers.push((await lastValueFrom(m.decide(request(n)))).decision);
    expect(answers).toEqual(['yes', 'no', 'always']);
  });

  it('nothing is read between questions, and a withdrawn question stops reading', async () => {
    const { input, output } = streams();
    const m = new ApprovalManager({}, cliApproval({ input, output }));
    const sub = m.decide(request()).subscribe();
    expect(input.listenerCount('data')).toBe(1);
    sub.unsubscribe();
    expect(input.listenerCount('data')).toBe(0);
    expect(input.isPaused()).toBe(true);
    input.write('y\n');
    expect((await lastValueFrom(m.decide(request(2)))).decision).toBe('yes');
    expect(input.listenerCount('data')).toBe(0);
    expect(m.auditLog.map((e) => e.requestId)).toEqual(['r2']);
  });

  it('parseCliAnswer maps lines the same way', () => {
    expect([parseCliAnswer('y'), parseCliAnswer('a'), parseCliAnswer(null), parseCliAnswer('x')]).toEqual(['yes', 'always', null, 'no']);
  });
});
