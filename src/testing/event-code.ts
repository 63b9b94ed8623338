import type { TurnEvent } from '../core/events.js';

/**
 * A turn event as a short, readable code, so marble diagrams of whole turns stay aligned:
 * `iteration 1`, `text hi`, `args read {"pa`, `call read`, `read executed`, `ask file_write`,
 * `decided file_write yes`, `usage`, `response`, `done final`; a sub-agent's event nested under a
 * call (`delegate`) is its own code after the sub-agent's name: `child> call read`.
 *
 * Only what runs on observables lives in virtual time: a tool (or approval front door) that
 * returns a Promise settles on the microtask queue, which the TestScheduler does not drive, so
 * inside `scheduler.run()` its result arrives after the run has flushed. Give such tools a
 * `cold()` observable in marble tests, and test Promise-returning code with ordinary async tests.
 *
 * ```
 * tool:     ------(r|)              cold(), the tool's result at frame 6
 * codes:    (ab)--(cdef|)           a 'iteration 1', b 'call slow', c 'slow executed',
 *                                   d 'iteration 2', e 'text done', f 'done final'
 * ```
 * @example
 * ```ts
 * import { createTestScheduler, eventCode, fakeTool, scriptedModel } from 'rx-tool-loop/testing';
 * createTestScheduler(expect).run(({ cold, expectObservable }) => {
 *   const slow = fakeTool('slow', cold('------(r|)', { r: 'ok' }));
 *   const model = scriptedModel([{ toolCalls: [{ name: 'slow', arguments: {} }] }, { text: 'done' }]);
 *   const agent = createAgent({ provider: model, model: 'm', tools: [slow] });
 *   expectObservable(agent.run({ message: 'go' }).pipe(map(eventCode))).toBe('(ab)--(cdef|)', {
 *     a: 'iteration 1', b: 'call slow', c: 'slow executed', d: 'iteration 2', e: 'text done', f: 'done final',
 *   });
 * });
 * ```
 * @param event any `TurnEvent` of `agent.run()`.
 * @return its code.
 */
export function eventCode(event: TurnEvent): string {
  switch (event.type) {
    case 'iteration':
      return `iteration ${event.iteration}`;
    case 'text-delta':
      return `text ${event.text}`;
    case 'tool-call-delta':
      return `args ${event.name} ${event.argumentsText}`;
    case 'tool-call':
      return `call ${event.name}`;
    case 'tool-result':
      return `${event.name} ${event.outcome}`;
    case 'done':
      return `done ${event.reason}`;
    case 'usage':
      return 'usage';
    case 'response':
      return 'response';
    case 'approval-request':
      return `ask ${event.toolName}`;
    case 'approval-decision':
      return `decided ${event.toolName} ${event.decision}`;
    case 'delegate':
      return `${event.agent}> ${eventCode(event.event)}`;
  }
}
