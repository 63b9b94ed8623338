import { from, of, takeUntil } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, PreparedCall, TurnEvent } from '../src/index.js';
import { createPrepContext, prepGate, prepareCalls, resolveTool, type PrepStep } from '../src/operators.js';
import { createTestScheduler, fakeTool } from '../src/testing/index.js';
import { codes, parsedCall, stage } from './operator-harness.js';

describe('prepareCalls over a batch: slot order, calls behind a waiting step wait, a parked call is the last', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('synchronous steps prepare every call at once, in slot order', () => {
    scheduler.run(({ expectObservable }) => {
      const { it: iteration } = stage({ tools: [fakeTool('a', 'A')] });
      const calls = [parsedCall(0, 'a'), parsedCall(1, 'nope'), parsedCall(2, 'a')];
      const expected = { a: '#0 ready', b: '#1 unknown', c: '#2 ready' };
      expectObservable(codes(from(calls).pipe(prepareCalls(iteration, [resolveTool])))).toBe('(abc|)', expected);
    });
  });

  it('from the first call a step waits for, the calls behind it wait; the calls before it go at once', () => {
    scheduler.run(({ cold, expectObservable }) => {
      let started = 0;
      const slow = prepGate((call) => {
        started++;
        return call.slot === 1 ? cold<PreparedCall>('---(p|)', { p: call }) : of(call);
      });
      const { it: iteration } = stage({ tools: [fakeTool('a', 'A')] });
      const calls = [parsedCall(0, 'a'), parsedCall(1, 'a'), parsedCall(2, 'a')];
      expectObservable(codes(from(calls).pipe(prepareCalls(iteration, [resolveTool, slow], createPrepContext(iteration))))).toBe('a--(bc|)', {
        a: '#0 ready',
        b: '#1 ready',
        c: '#2 ready',
      });
      scheduler.flush();
      expect(started).toBe(3); // each call's steps ran once: the waiting call was not prepared again
    });
  });

  it('a call parked by a step that answers at once is the last value: the calls after it are not prepared', () => {
    scheduler.run(({ expectObservable }) => {
      const request = { id: 'r0' } as unknown as ApprovalRequest;
      let seen = 0;
      const park: PrepStep = (call) => {
        seen++;
        return call.slot === 1 ? { ...call, paused: request } : call;
      };
      const { it: iteration } = stage({ tools: [fakeTool('a', 'A')] });
      const calls = [parsedCall(0, 'a'), parsedCall(1, 'a'), parsedCall(2, 'a')];
      expectObservable(codes(from(calls).pipe(prepareCalls(iteration, [resolveTool, park], createPrepContext(iteration))))).toBe('(ab|)', {
        a: '#0 ready',
        b: '#1 ready',
      });
      scheduler.flush();
      expect(seen).toBe(2);
    });
  });

  it('a step that cancels the turn ends the batch there: takeUntil(cancel$), as the loop pipes it, prepares no further call', () => {
    const controller = new AbortController();
    let seen = 0;
    scheduler.run(({ expectObservable }) => {
      const { it: iteration } = stage({ tools: [fakeTool('a', 'A')], signal: controller.signal });
      const cancels: PrepStep = (call) => {
        seen++;
        if (call.slot === 0) controller.abort();
        return call;
      };
      const calls = [parsedCall(0, 'a'), parsedCall(1, 'a')];
      expectObservable(codes(from(calls).pipe(prepareCalls(iteration, [resolveTool, cancels], createPrepContext(iteration)), takeUntil<TurnEvent | PreparedCall>(iteration.turn.cancel$)))).toBe('|');
      scheduler.flush();
      expect(seen).toBe(1);
    });
  });
});
