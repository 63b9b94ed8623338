import type { ConversationScope } from '../core/conversation-scope.js';
import type { ApprovalPort } from './approval-port.js';

/**
 * An approval port that asks `port` (its policy, front door, allow-lists and audit log) as if
 * every question came from `scope`: what a sub-agent's turn asks its parent's port with, so its
 * prompts go to the parent's front door and an `always` answered there counts in the parent's
 * conversation (else the parent's turn), for the parent and its later sub-agents' turns alike.
 *
 * @example
 * ```ts
 * const approval = scopedApproval(parent.resolved.approval!, { conversationId: 'c1' });
 * approval.needsPrompt(deploy); // as the parent's turn in conversation c1 would see it
 * ```
 * @param port The approval port that decides.
 * @param scope The conversation (else the turn) every question counts in.
 * @return A port that answers for `scope` whatever scope a question names.
 */
export function scopedApproval(port: ApprovalPort, scope: ConversationScope): ApprovalPort {
  const fixed: ConversationScope = scope.conversationId !== undefined ? { conversationId: scope.conversationId } : { turnId: scope.turnId };
  return Object.freeze({
    verdict: (tool, _asked) => port.verdict(tool, fixed),
    needsPrompt: (tool, _asked) => port.needsPrompt(tool, fixed),
    decide: (request, options) => {
      const { conversationId: _c, turnId: _t, ...asked } = request;
      return port.decide({ ...asked, ...fixed }, options);
    },
  } satisfies ApprovalPort);
}
