import { from, map, of, takeUntil } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApprovalManager, backchannelApproval, type ParsedCall, type PreparedCall, type TurnEvent } from '../src/index.js';
import { collectBatch, fromAbortSignal, prepGate, prepareCalls, resolveTool, type PrepStep } from '../src/operators.js';
import { createTestScheduler, fakeTool } from '../src/testing/index.js';
import { codes, parsedCall, stage } from './operator-harness.js';

describe('prepareCalls prepares each call in slot order (concatMap), its steps inline until one waits', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('synchronous steps prepare every call at once, in slot order', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const { it: iteration } = stage({ tools: [fakeTool('a', 'A')] });
      const calls$ = cold('-a-(bc)|', { a: parsedCall(0, 'a'), b: parsedCall(1, 'nope'), c: parsedCall(2, 'a') });
      expectObservable(codes(calls$.pipe(prepareCalls(iteration, [resolveTool])))).toBe('-a-(bc)|', {
        a: '#0 ready',
        b: '#1 unknown',
        c: '#2 ready',
      });
      expectSubscriptions(calls$.subscriptions).toBe('^------!');
    });
  });

  it('a step that waits holds back the calls behind it; they follow in slot order', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const slow = prepGate((call) => (call.slot === 0 ? cold<PreparedCall>('---(p|)', { p: call }) : of(call)));
      const { it: iteration } = stage({ tools: [fakeTool('a', 'A')] });
      const calls$ = cold('(ab|)', { a: parsedCall(0, 'a'), b: parsedCall(1, 'a') });
      expectObservable(codes(calls$.pipe(prepareCalls(iteration, [resolveTool, slow])))).toBe('---(ab|)', { a: '#0 ready', b: '#1 ready' });
    });
  });

  it("a waiting step's events pass, its first call ends it (what it sends later is dropped), and the next step runs", () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const { it: iteration } = stage({ tools: [fakeTool('a', 'A')] });
      const step$ = cold<TurnEvent | 'call'>('-e-c-c|', { e: { type: 'text-delta', iteration: 1, text: 'hm' }, c: 'call' });
      const waits = prepGate((call) => step$.pipe(map((v) => (v === 'call' ? call : v))));
      const renamed: PrepStep = (call) => ({ ...call, name: 'b' });
      const slow = prepGate((call) => cold<PreparedCall>('---(p|)', { p: call }));
      const calls$ = cold('(a|)', { a: parsedCall(0, 'a') });
      expectObservable(codes(calls$.pipe(prepareCalls(iteration, [waits, renamed, slow, resolveTool])))).toBe('-e----(a|)', {
        e: 'text hm',
        a: '#0 unknown', // renamed to b after the wait: the steps after it ran
      });
      expectSubscriptions(step$.subscriptions).toBe('^--!');
    });
  });

  it('an approval prompt emits its request and decision events before the call; prompts are asked one at a time', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const answers = [cold('--(y|)', { y: 'yes' }), cold('6ms (n|)', { n: 'no' })];
      let asked = 0;
      const approval = new ApprovalManager({ level: 'supervised' }, backchannelApproval(() => answers[asked++]));
      const { it: iteration, resolved } = stage({ tools: [fakeTool('w', 'W'), fakeTool('v', 'V')], approval });
      const calls$ = cold('(ab|)', { a: parsedCall(0, 'w'), b: parsedCall(1, 'v') });
      expectObservable(codes(calls$.pipe(prepareCalls(iteration, resolved.prepSteps)))).toBe('q-(yAr) 1ms (nB|)', {
        q: 'ask w',
        y: 'decided w yes',
        A: '#0 ready',
        r: 'ask v',
        n: 'decided v no',
        B: '#1 denied',
      });
    });
  });

  it('cancelled while a prompt waits: the prompt is withdrawn and the unprepared calls close interrupted', () => {
    const controller = new AbortController();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer$ = cold('-----(y|)', { y: 'yes' });
      const approval = new ApprovalManager({ level: 'supervised' }, backchannelApproval(() => answer$));
      const { it: iteration, resolved, turn } = stage({ tools: [fakeTool('w', 'W')], approval, signal: controller.signal });
      cold('--x').subscribe(() => controller.abort());
      const calls = [parsedCall(0, 'w'), parsedCall(1, 'w', { x: 1 })];
      const prepared$ = from(calls).pipe(prepareCalls(iteration, resolved.prepSteps), takeUntil(turn.cancel$), collectBatch(calls));
      expectObservable(codes(prepared$)).toBe('q-(B|)', { q: 'ask w', B: '[#0 interrupted, #1 interrupted]' });
      expectSubscriptions(answer$.subscriptions).toBe('^-!');
    });
  });

  it('a step that completes without a call drops it (the batch closes that slot interrupted)', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const drop = prepGate((call) => (call.slot === 1 ? cold<PreparedCall>('-|') : of(call)));
      const { it: iteration } = stage({ tools: [fakeTool('a', 'A')] });
      const calls = [parsedCall(0, 'a'), parsedCall(1, 'a'), parsedCall(2, 'a')];
      const batch$ = from<ParsedCall[]>(calls).pipe(prepareCalls(iteration, [resolveTool, drop]), collectBatch(calls));
      const outcomes: string[] = [];
      batch$.subscribe((value) => {
        if (Array.isArray(value)) outcomes.push(...value.map((call) => call.filled?.outcome ?? 'ready'));
      });
      expectObservable(codes(from(calls).pipe(prepareCalls(iteration, [resolveTool, drop])))).toBe('a(c|)', {
        a: '#0 ready',
        c: '#2 ready',
      });
      scheduler.flush();
      expect(outcomes).toEqual(['ready', 'interrupted', 'ready']);
    });
  });

  it('fromAbortSignal is the cancellation notifier: an already-aborted signal stops preparation before the first call', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const { it: iteration } = stage({ tools: [fakeTool('a', 'A')] });
      const calls$ = cold<ParsedCall>('-a|', { a: parsedCall(0, 'a') });
      const prepared$ = calls$.pipe(prepareCalls(iteration, [resolveTool]), takeUntil(fromAbortSignal(AbortSignal.abort())));
      expectObservable(codes(prepared$)).toBe('|');
      expectSubscriptions(calls$.subscriptions).toBe([]);
    });
  });
});
