import { map, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApprovalManager, backchannelApproval, createAgent, type ApprovalRequest, type TurnEvent } from '../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { code, expectOneCardPerSlot } from './turn-harness.js';

const CODES = {
  I: 'iteration 1', J: 'iteration 2', A: 'ask deploy', t: 'text ok', D: 'done final', z: 'done cancelled',
  y: 'decided deploy yes', n: 'decided deploy no', w: 'decided deploy always',
  c: 'call deploy', e: 'deploy executed', d: 'deploy denied', i: 'deploy interrupted',
  f: 'call file_read', F: 'file_read interrupted',
};

describe('approval prompts are asked one at a time, in slot order', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('each prompt waits for the answer to the one before it; tools start only after the last answer', () => {
    const asked: unknown[] = [];
    const deploy = fakeTool('deploy', 'ok');
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answers = [cold('----------(y|)', { y: 'yes' }), cold('----------(n|)', { n: 'no' }), cold('----------(a|)', { a: 'always' })];
      const expected = '(IA) 6ms (yA) 6ms (nA) 6ms (wcecdceJtD|)';
      const subs = [
        '^---------!                   ',
        '----------^---------!         ',
        '--------------------^---------!',
      ];
      let n = 0;
      const door = backchannelApproval((req: ApprovalRequest) => {
        asked.push(req.arguments);
        return answers[n++];
      });
      const agent = createAgent({
        provider: scriptedModel([{ toolCalls: [1, 2, 3].map((env) => ({ name: 'deploy', arguments: { env } })) }, { text: 'ok' }]),
        model: 'm',
        tools: [deploy],
        approval: new ApprovalManager({}, door),
      });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code))).toBe(expected, CODES);
      answers.forEach((answer, i) => expectSubscriptions(answer.subscriptions).toBe(subs[i]));
    });
    expect(asked).toEqual([{ env: 1 }, { env: 2 }, { env: 3 }]);
    expect(deploy.calls.map((c) => c.args)).toEqual([{ env: 1 }, { env: 3 }]);
  });

  it('a backchannel that does not answer within timeoutMs is unanswerable: denied by policy at the timeout', () => {
    const deploy = fakeTool('deploy', 'ok');
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer = cold('----------(y|)', { y: 'yes' });
      const expected = '(IA)-(ncdJtD|)';
      const subs =     '^----!';
      const agent = createAgent({
        provider: scriptedModel([{ toolCalls: [{ name: 'deploy', arguments: {} }] }, { text: 'ok' }]),
        model: 'm',
        tools: [deploy],
        approval: new ApprovalManager({}, backchannelApproval(() => answer, { timeoutMs: 5 })),
      });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code))).toBe(expected, CODES);
      expectSubscriptions(answer.subscriptions).toBe(subs);
    });
    expect(deploy.calls).toEqual([]);
  });
});

describe("a pending prompt cancelled by the turn's signal ends interrupted, with no execution", () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('aborting while the operator has not answered withdraws the prompt; every slot closes interrupted and nothing runs', () => {
    const events: TurnEvent[] = [];
    const deploy = fakeTool('deploy', 'ok');
    const read = fakeTool('file_read', 'r');
    let signal!: AbortSignal;
    const approval = new ApprovalManager({}, backchannelApproval((_req, s) => ((signal = s), answer)));
    let answer!: ReturnType<typeof scheduler.createColdObservable<string>>;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      answer = cold('----------(y|)', { y: 'yes' });
      const abort =    '----x';
      const expected = '(IA)(cifFz|)';
      const subs =     '^---!';
      const ac = new AbortController();
      cold(abort).subscribe(() => ac.abort());
      const agent = createAgent({
        provider: scriptedModel([{ toolCalls: [{ name: 'deploy', arguments: {} }, { name: 'file_read', arguments: {} }] }, { text: 'never' }]),
        model: 'm',
        tools: [deploy, read],
        approval,
      });
      const events$ = agent.run({ message: 'go', signal: ac.signal }).pipe(tap((e) => events.push(e)), map(code));
      expectObservable(events$).toBe(expected, CODES);
      expectSubscriptions(answer.subscriptions).toBe(subs);
    });
    expect(deploy.calls).toEqual([]);
    expect(read.calls).toEqual([]);
    expect(signal.aborted).toBe(true);
    expect(events.filter((e) => e.type === 'approval-decision')).toEqual([]);
    expect(approval.auditLog).toEqual([]);
    const results = expectOneCardPerSlot(events, 2);
    expect(results.map((r) => [r.outcome, r.success])).toEqual([
      ['interrupted', false],
      ['interrupted', false],
    ]);
  });
});
