/**
 * Where per-conversation state (approval allow-lists, activated deferred tools) belongs: the
 * conversation when the turn has a `conversationId`, else the turn alone.
 */
export interface ConversationScope {
  readonly conversationId?: string;
  readonly turnId?: string;
}

/**
 * The key of a scope: `conversation:{id}`, else `turn:{id}`; undefined for a scope with neither
 * (state made outside any turn, e.g. an approval manager used on its own).
 *
 * @example
 * ```ts
 * scopeKey({ conversationId: 'c1', turnId: 't9' }); // 'conversation:c1'
 * scopeKey({ turnId: 't9' });                        // 'turn:t9'
 * ```
 */
export function scopeKey(scope: ConversationScope | undefined): string | undefined {
  if (scope?.conversationId !== undefined) return `conversation:${scope.conversationId}`;
  if (scope?.turnId !== undefined) return `turn:${scope.turnId}`;
  return undefined;
}
