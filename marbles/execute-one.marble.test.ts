import { finalize } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { executeOne } from '../src/operators.js';
import { createTestScheduler, fakeTool } from '../src/testing/index.js';
import { codes, executable, filled, stage } from './operator-harness.js';

describe('executeOne runs one prepared call: its tool-call event, then its result and tool-result event', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it.each([
    ['opens the call right before the tool starts and closes it when the tool answers', '---(r|)', '^--!', 'c--(Re|)'],
    ["counts a tool's Observable with its first value and tears it down with it, as take(1) would", '--r--s--t--|', '^-!', 'c-(Re|)'],
  ])('%s', (_title, tool, subs, expected) => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const tool$ = cold(tool, { r: 'R', s: 'S', t: 'T' });
      const fake = fakeTool('a', tool$);
      const { it: iteration } = stage({ tools: [fake] });
      expectObservable(codes(executeOne(iteration, executable(0, fake)))).toBe(expected, {
        c: 'call a',
        R: '#0 executed',
        e: 'a executed',
      });
      expectSubscriptions(tool$.subscriptions).toBe(subs);
    });
  });

  it("a tool's deadline tears its Observable down before its signal aborts, then fails the slot", () => {
    const order: string[] = [];
    const tool = fakeTool(
      'a',
      (_args, ctx) => (
        ctx.signal.addEventListener('abort', () => order.push('aborted')),
        scheduler.createColdObservable('------(r|)', { r: 'R' }).pipe(finalize(() => order.push('torn down')))
      ),
      { timeoutMs: 4 },
    );
    scheduler.run(({ expectObservable }) => {
      const { it: iteration } = stage({ tools: [tool] });
      expectObservable(codes(executeOne(iteration, executable(0, tool)))).toBe('c---(Re|)', {
        c: 'call a',
        R: '#0 failed',
        e: 'a failed',
      });
    });
    expect(order).toEqual(['torn down', 'aborted']);
  });

  it('a slot decided by preparation emits its three values at once and runs nothing', () => {
    scheduler.run(({ expectObservable }) => {
      const { it: iteration } = stage();
      expectObservable(codes(executeOne(iteration, filled(0, 'nope')))).toBe('(cRe|)', {
        c: 'call nope',
        R: '#0 unknown',
        e: 'nope unknown',
      });
    });
  });

  it('unsubscribing while the tool runs tears it down and aborts its signal, with no result', () => {
    const tool = fakeTool('a', () => scheduler.createColdObservable('-----(r|)', { r: 'R' }));
    scheduler.run(({ expectObservable }) => {
      const { it: iteration } = stage({ tools: [tool] });
      expectObservable(codes(executeOne(iteration, executable(0, tool))), '^--!').toBe('c--', { c: 'call a' });
    });
    expect(tool.calls[0].signal.aborted).toBe(true);
  });

  it('a tool that fails closes the slot failed, with the error as its result', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const tool = fakeTool('a', cold('--#', {}, new Error('boom')));
      const { it: iteration } = stage({ tools: [tool] });
      expectObservable(codes(executeOne(iteration, executable(0, tool)))).toBe('c-(Re|)', {
        c: 'call a',
        R: '#0 failed',
        e: 'a failed',
      });
    });
  });

  it('after the turn was cancelled the tool never starts and nothing is emitted', () => {
    const controller = new AbortController();
    controller.abort();
    const tool = fakeTool('a', 'R');
    scheduler.run(({ expectObservable }) => {
      const { it: iteration } = stage({ tools: [tool], signal: controller.signal });
      expectObservable(codes(executeOne(iteration, executable(0, tool)))).toBe('|');
    });
    expect(tool.calls).toEqual([]);
  });
});
