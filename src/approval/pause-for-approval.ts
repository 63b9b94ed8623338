import type { ApprovalFrontDoor } from './approval-port.js';

/** The answer with which a front door parks the turn instead of deciding (`pauseForApproval`). */
export const PAUSE_TURN: unique symbol = Symbol.for('rx-tool-loop.pause-turn');

/**
 * An approval front door that parks the turn instead of waiting: the first call that needs a
 * prompt ends the turn with `done` whose `reason` is 'paused', carrying a `snapshot` (the turn as
 * data) and `pending` (the request waiting). A human decides later — in this process or another —
 * and `agent.resume(snapshot, { decisions: { [requestId]: 'yes' } })` continues the turn where it
 * stopped, with the same events and history as if the answer had come at once.
 *
 * @example
 * ```ts
 * const agent = createAgent({ provider, model, tools, approval: new ApprovalManager({}, pauseForApproval()) });
 * const done = await agent.complete({ message: 'delete notes.txt' }); // reason 'paused'
 * const rest = agent.resume(done.snapshot!, { decisions: { [done.pending![0].requestId]: 'no' } });
 * ```
 */
export function pauseForApproval(): ApprovalFrontDoor {
  return Object.freeze({ name: 'pause', ask: () => PAUSE_TURN as never });
}
