// Approval: policy, audit log, argument summaries and the front doors that ask an operator.

export { ApprovalManager } from './approval-manager.js';
export type { ApprovalManagerOptions } from './approval-manager.js';
export { DEFAULT_AUTO_APPROVE } from './approval-policy.js';
export type { ApprovalPolicy } from './approval-policy.js';
export type {
  ApprovalPort,
  ApprovalLevel,
  ApprovalVerdict,
  ApprovalSubject,
  ApprovalRequest,
  ApprovalAnswer,
  ApprovalAnswerInput,
  ApprovalFrontDoor,
  ApprovalDecision,
} from './approval-port.js';
export type { ApprovalAuditEntry } from './approval-audit.js';
export { cliApproval } from './cli-approval.js';
export type { CliApprovalOptions } from './cli-approval.js';
export type { LineInput } from './read-line.js';
export { nonInteractiveApproval } from './non-interactive-approval.js';
export { backchannelApproval } from './backchannel-approval.js';
export type { BackchannelApprovalOptions, BackchannelRequest } from './backchannel-approval.js';
export { summarizeArgs } from './summarize-args.js';
export { sanitizeReplacement, MAX_REPLACEMENT_BYTES } from './sanitize-replacement.js';
export { DENIED_BY_USER_TEXT, POLICY_DENIAL_TEXT } from './approval-texts.js';
export { formatFullArgs, FULL_ARGS_WIDTH } from './format-full-args.js';
export { shownToolName } from './shown-tool-name.js';
export type { FullArgsOptions } from './format-full-args.js';
export { pauseForApproval, PAUSE_TURN } from './pause-for-approval.js';
export type { DecideOptions, ConversationScope } from './approval-port.js';
