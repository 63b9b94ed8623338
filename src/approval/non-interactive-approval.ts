import type { ApprovalFrontDoor } from './approval-port.js';

const NON_INTERACTIVE: ApprovalFrontDoor = Object.freeze({ name: 'non-interactive', ask: () => null });

/**
 * The front door for turns with no operator (CI, cron, a channel without a backchannel): every
 * prompt is unanswerable, so a prompt-required call is denied by policy — never approved.
 *
 * @example
 * ```ts
 * const approval = new ApprovalManager({}, nonInteractiveApproval());
 * ```
 */
export function nonInteractiveApproval(): ApprovalFrontDoor {
  return NON_INTERACTIVE;
}
