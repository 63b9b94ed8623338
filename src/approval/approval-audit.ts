/** One prompted decision, as the audit log keeps it. Approval is recorded, not execution. */
export interface ApprovalAuditEntry {
  /** When the decision was made (ISO 8601). */
  readonly timestamp: string;
  readonly requestId: string;
  readonly toolName: string;
  /** The redacted argument summary the operator saw. */
  readonly argumentsSummary: string;
  readonly decision: 'yes' | 'no' | 'always' | 'replace';
  /** The deciding channel: the front door's name ('cli', 'backchannel', …) or 'policy'. */
  readonly decidedBy: string;
  readonly byOperator: boolean;
  /** The channel the turn came in on. */
  readonly channel: string;
}
