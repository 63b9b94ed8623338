/** A decision for a parked approval, keyed by its `requestId` when a turn resumes. */
export type ResumeDecision = 'yes' | 'no' | 'always' | { readonly replaceWith: string };

/** What an operator is asked to decide. */
export interface ApprovalRequest {
  readonly requestId: string;
  readonly toolName: string;
  readonly arguments: unknown;
  /** The redacted, shortened argument summary shown to the operator. */
  readonly argumentsSummary: string;
  /** The channel the turn came in on. */
  readonly channel: string;
  /** The turn's conversation: an `always` answer allows the tool for this conversation only. */
  readonly conversationId?: string;
  /** The asking turn: without a conversation, an `always` answer allows the tool for this turn only. */
  readonly turnId?: string;
}
