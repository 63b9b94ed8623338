import type { ConversationScope } from '../core/conversation-scope.js';
import type { PrepContext } from '../context/resolved-execution.js';

/**
 * The asking turn's approval scope: its conversation, else the turn alone. Every step that asks
 * policy about a call (the prompt-loop guard, the approval gate) passes it, so an `always` given
 * in this conversation counts for all of them alike, and one given elsewhere for none.
 *
 * @example
 * ```ts
 * approval.verdict(tool, turnScope(ctx)); // 'approve' once the tool is on this conversation's allow-list
 * ```
 */
export function turnScope({ turn }: PrepContext): ConversationScope {
  return turn.conversationId !== undefined ? { conversationId: turn.conversationId, turnId: turn.turnId } : { turnId: turn.turnId };
}
