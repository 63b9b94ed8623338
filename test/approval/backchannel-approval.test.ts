import { lastValueFrom, NEVER, of, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, backchannelApproval, ConfigurationError, type ApprovalRequest } from '../../src/index.js';

const request: ApprovalRequest = { requestId: 'r1', toolName: 'deploy', arguments: { env: 'prod' }, argumentsSummary: 'env: prod', channel: 'web' };
const decide = (m: ApprovalManager) => lastValueFrom(m.decide(request));

describe('backchannel front door: a remote operator answers yes / no / always / replace with text; timeout or disconnect = unanswerable', () => {
  it.each([
    ['yes', 'yes'],
    ['no', 'no'],
    ['always', 'always'],
  ] as const)('a direct %s is the operator decision %s', async (answer, decision) => {
    const d = await decide(new ApprovalManager({}, backchannelApproval(() => answer)));
    expect(d).toEqual({ decision, decidedBy: 'backchannel', byOperator: true });
  });

  it('a Promise answer counts', async () => {
    const d = await decide(new ApprovalManager({}, backchannelApproval(async () => 'yes')));
    expect(d.decision).toBe('yes');
  });

  it("an Observable answer counts with its first value (a string is one answer, not characters)", async () => {
    const d = await decide(new ApprovalManager({}, backchannelApproval(() => of('always', 'no'))));
    expect(d.decision).toBe('always');
  });

  it('{ replaceWith } is a replacement, sanitized', async () => {
    const d = await decide(new ApprovalManager({}, backchannelApproval(() => ({ replaceWith: 'by hand\u0000' }))));
    expect(d).toEqual({ decision: 'replace', decidedBy: 'backchannel', byOperator: true, replacement: 'by hand' });
  });

  it('the callback receives the request and a signal', async () => {
    const seen: [ApprovalRequest, AbortSignal][] = [];
    await decide(new ApprovalManager({}, backchannelApproval((req, signal) => (seen.push([req, signal]), 'yes'))));
    expect(seen[0][0]).toEqual(request);
    expect(seen[0][1]).toBeInstanceOf(AbortSignal);
  });

  it('the deciding channel can be named', async () => {
    const m = new ApprovalManager({}, backchannelApproval(() => 'yes', { name: 'web-console' }));
    expect((await decide(m)).decidedBy).toBe('web-console');
    expect(m.auditLog[0].decidedBy).toBe('web-console');
  });

  it.each<[string, () => unknown]>([
    ['null', () => null],
    ['a rejected Promise (disconnect)', () => Promise.reject(new Error('socket closed'))],
    ['an errored Observable', () => throwError(() => new Error('x'))],
    ['an Observable that completes empty', () => of()],
    ['a thrown error', () => { throw new Error('bug'); }],
    ['an unknown word', () => 'maybe'],
    ['a replacement that is not text', () => ({ replaceWith: 42 })],
  ])('%s is unanswerable: no, decided by policy', async (_label, answer) => {
    const d = await decide(new ApprovalManager({}, backchannelApproval(answer as never)));
    expect(d).toMatchObject({ decision: 'no', decidedBy: 'policy', byOperator: false });
  });

  it('withdrawing the question (unsubscribing) aborts the signal given to the callback', () => {
    let signal!: AbortSignal;
    const m = new ApprovalManager({}, backchannelApproval((_req, s) => ((signal = s), NEVER)));
    const sub = m.decide(request).subscribe();
    expect(signal.aborted).toBe(false);
    sub.unsubscribe();
    expect(signal.aborted).toBe(true);
    expect(m.auditLog).toEqual([]);
  });

  it('a decided question does not abort the signal', async () => {
    let signal!: AbortSignal;
    await decide(new ApprovalManager({}, backchannelApproval(async (_req, s) => ((signal = s), 'yes'))));
    expect(signal.aborted).toBe(false);
  });

  it('timeoutMs must be positive', () => {
    expect(() => backchannelApproval(() => 'yes', { timeoutMs: 0 })).toThrow(ConfigurationError);
    expect(() => backchannelApproval(undefined as never)).toThrow(ConfigurationError);
  });

  it('an answer before the timeout counts (the timeout in virtual time is in the marble spec)', async () => {
    const d = await decide(new ApprovalManager({}, backchannelApproval(async () => 'no', { timeoutMs: 60_000 })));
    expect(d).toMatchObject({ decision: 'no', byOperator: true });
  });
});
