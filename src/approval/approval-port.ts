import type { Observable } from 'rxjs';
import type { ApprovalRequest } from '../core/approval-request.js';
import type { ConversationScope } from '../core/conversation-scope.js';
import type { ToolRisk } from '../core/tool.js';

/** How much an approval policy lets run without asking. */
export type ApprovalLevel = 'full' | 'readonly' | 'supervised';

/**
 * What policy says about a tool before anyone is asked: `approve` (runs, counts as an approval),
 * `allow` (runs without a prompt but is not an approval: an `approved` marker stays false), or
 * `prompt` (an operator must answer first).
 */
export type ApprovalVerdict = 'approve' | 'allow' | 'prompt';

export type { ApprovalRequest } from '../core/approval-request.js';
export type { ConversationScope } from '../core/conversation-scope.js';

/**
 * What policy looks at: a tool's name and its declared risk (any `Tool` is one). A bare name, or
 * no `risk`, counts as `'write'`.
 */
export interface ApprovalSubject {
  readonly name: string;
  readonly risk?: ToolRisk;
}

/** An operator's answer; `null` means nobody could answer (policy then denies). */
export type ApprovalAnswer = 'yes' | 'no' | 'always' | { readonly replaceWith: string } | null;

/**
 * An answer given directly, or as a Promise or Observable of one (its first value counts). Any
 * other value (an unknown word, a non-text replacement) is unanswerable, like `null`.
 */
export type ApprovalAnswerInput = ApprovalAnswer | PromiseLike<ApprovalAnswer | string> | Observable<ApprovalAnswer | string>;

/**
 * Where prompts go: a terminal (`cliApproval`), nobody (`nonInteractiveApproval`) or a remote
 * operator (`backchannelApproval`). `ask` may answer at once or later; unsubscribing from an
 * Observable answer (or the aborted `signal`) means the question was withdrawn.
 */
export interface ApprovalFrontDoor {
  /** The deciding channel recorded for an operator's answer: 'cli', 'backchannel', … */
  readonly name: string;
  ask(request: ApprovalRequest, signal: AbortSignal): ApprovalAnswerInput;
}

/** How a prompt was decided. An unanswerable prompt is `no`, decided by 'policy', not by an operator. */
export interface ApprovalDecision {
  /** `pause`: the front door parked the turn (`pauseForApproval`); nothing is decided or recorded yet. */
  readonly decision: 'yes' | 'no' | 'always' | 'replace' | 'pause';
  /** The front door's name for an operator's answer; 'policy' when nobody answered. */
  readonly decidedBy: string;
  readonly byOperator: boolean;
  /** For `replace`: the operator's text, already sanitized. */
  readonly replacement?: string;
  /** Why the prompt was unanswerable, when a front door failed. */
  readonly error?: unknown;
}

/** How `decide` runs: the clock for the audit entry, and an answer given in advance (a resumed turn's). */
export interface DecideOptions {
  readonly now?: () => number;
  /** The operator's answer, already given (`agent.resume`): the front door is not asked. */
  readonly answer?: { readonly value: ApprovalAnswer; readonly decidedBy: string };
}

/** What the preparation pipeline needs from an approval manager. `ApprovalManager` implements it. */
export interface ApprovalPort {
  /**
   * What policy says about this tool now (its risk and the scope's allow-list included). Pass the
   * tool; a bare name is a tool without a declared risk. `scope` is the asking turn's
   * conversation (else the turn): only `always` answers given in the same scope count.
   */
  verdict(tool: ApprovalSubject | string, scope?: ConversationScope): ApprovalVerdict;
  /** Whether policy requires asking an operator before this tool runs (in `scope`). */
  needsPrompt(tool: ApprovalSubject | string, scope?: ConversationScope): boolean;
  /**
   * Asks the front door (on subscription) and emits exactly one decision, recorded in the audit
   * log; unsubscribing first withdraws the question and records nothing. An `always` answer
   * allows the tool in the request's scope (`conversationId`, else `turnId`).
   */
  decide(request: ApprovalRequest, options?: DecideOptions): Observable<ApprovalDecision>;
}
