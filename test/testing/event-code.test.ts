import { map } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { code } from '../../marbles/turn-harness.js';
import { createAgent, type TurnEvent } from '../../src/index.js';
import { createTestScheduler, eventCode, fakeTool, scriptedModel } from '../../src/testing/index.js';

let scheduler: TestScheduler;
beforeEach(() => {
  scheduler = createTestScheduler(expect);
});

describe('eventCode maps turn events to short marble codes (exported from rx-tool-loop/testing)', () => {
  it('gives every event type its code', () => {
    const events: TurnEvent[] = [
      { type: 'iteration', iteration: 1 },
      { type: 'text-delta', iteration: 1, text: 'hi' },
      { type: 'tool-call', iteration: 1, slot: 0, id: 'c1', name: 'read', args: {} } as TurnEvent,
      { type: 'tool-result', iteration: 1, slot: 0, id: 'c1', name: 'read', output: '', success: true, outcome: 'executed', durationMs: 0 },
      { type: 'approval-request', requestId: 'r', toolName: 'file_write', argumentsSummary: '' } as TurnEvent,
      { type: 'approval-decision', requestId: 'r', toolName: 'file_write', decision: 'yes', decidedBy: 'u', byOperator: true } as TurnEvent,
      { type: 'usage', inputTokens: 1, outputTokens: 2 },
      { type: 'done', text: '', reason: 'final', history: [], iterations: 1 } as unknown as TurnEvent,
    ];
    expect(events.map(eventCode)).toEqual([
      'iteration 1',
      'text hi',
      'call read',
      'read executed',
      'ask file_write',
      'decided file_write yes',
      'usage',
      'done final',
    ]);
  });

  it('is the helper the marble specs use (marbles/turn-harness re-exports it)', () => {
    expect(code).toBe(eventCode);
  });

  it('draws a whole turn in virtual time, as its doc comment shows', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const slow = fakeTool('slow', cold('------(r|)', { r: 'ok' }));
      const model = scriptedModel([{ toolCalls: [{ name: 'slow', arguments: {} }] }, { text: 'done' }]);
      const agent = createAgent({ provider: model, model: 'm', tools: [slow] });
      expectObservable(agent.run({ message: 'go' }).pipe(map(eventCode))).toBe('(ab)--(cdef|)', {
        a: 'iteration 1',
        b: 'call slow',
        c: 'slow executed',
        d: 'iteration 2',
        e: 'text done',
        f: 'done final',
      });
    });
  });

  it('a Promise-returning tool leaves virtual time: inside run() its result never arrives', () => {
    scheduler.run(({ expectObservable }) => {
      const promised = fakeTool('promised', () => Promise.resolve('ok'));
      const model = scriptedModel([{ toolCalls: [{ name: 'promised', arguments: {} }] }, { text: 'done' }]);
      const agent = createAgent({ provider: model, model: 'm', tools: [promised] });
      expectObservable(agent.run({ message: 'go' }).pipe(map(eventCode)), '^--!').toBe('(ab)', {
        a: 'iteration 1',
        b: 'call promised',
      });
    });
  });
});
