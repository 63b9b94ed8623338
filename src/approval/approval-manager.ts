import { defer, Observable, take } from 'rxjs';
import type { ConversationScope } from '../core/conversation-scope.js';
import { ConfigurationError } from '../core/errors.js';
import type { ApprovalAuditEntry } from './approval-audit.js';
import { resolveApprovalPolicy, type ApprovalPolicy, type ResolvedApprovalPolicy } from './approval-policy.js';
import type {
  ApprovalDecision,
  ApprovalFrontDoor,
  ApprovalLevel,
  ApprovalPort,
  ApprovalRequest,
  ApprovalSubject,
  ApprovalVerdict,
  DecideOptions,
} from './approval-port.js';
import { answerInput, isPendingAnswer } from './answer-input.js';
import { nonInteractiveApproval } from './non-interactive-approval.js';
import { sanitizeReplacement } from './sanitize-replacement.js';
import { ScopedAllowLists } from './scoped-allow-lists.js';
import { PAUSE_TURN } from './pause-for-approval.js';

/** A decision that was made (not a pause). */
type Decided = ApprovalDecision & { readonly decision: ApprovalAuditEntry['decision'] };

const PAUSED: ApprovalDecision = Object.freeze({ decision: 'pause', decidedBy: 'pause', byOperator: false });

/** Options of an `ApprovalManager` beyond its policy and front door. */
export interface ApprovalManagerOptions {
  /** Receives each audit entry as it is recorded (to persist it elsewhere). A throw is ignored. */
  readonly onAudit?: (entry: ApprovalAuditEntry) => void;
  /** How many entries `auditLog` keeps, oldest dropped first. Default 1000. */
  readonly maxAuditEntries?: number;
  /**
   * How many conversations (or turns without one) keep an allow-list, the least recently used
   * dropped first (its tools prompt again). Default 1000.
   */
  readonly maxConversations?: number;
}

/**
 * Decides which tool calls need an operator (by the tool's risk and the policy's names), asks
 * the front door, keeps the allow-lists (filled by `always`) and the audit log of prompted
 * decisions. An `always` counts only in the conversation it was given in (`TurnInput.conversationId`;
 * a turn without one is its own scope), so one manager can serve many users' conversations.
 *
 * @example
 * ```ts
 * const approval = new ApprovalManager({ level: 'supervised', alwaysAsk: ['shell'] }, cliApproval());
 * const agent = createAgent({ provider, model, tools, approval });
 * ```
 */
export class ApprovalManager implements ApprovalPort {
  readonly level: ApprovalLevel;
  readonly frontDoor: ApprovalFrontDoor;
  readonly #policy: ResolvedApprovalPolicy;
  readonly #allowed: ScopedAllowLists;
  readonly #audit: ApprovalAuditEntry[] = [];
  readonly #onAudit?: (entry: ApprovalAuditEntry) => void;
  readonly #maxAudit: number;

  constructor(policy: ApprovalPolicy = {}, frontDoor: ApprovalFrontDoor = nonInteractiveApproval(), options: ApprovalManagerOptions = {}) {
    if (!frontDoor || typeof frontDoor.ask !== 'function') {
      throw new ConfigurationError('ApprovalManager needs a front door: cliApproval(), nonInteractiveApproval() or backchannelApproval(…).');
    }
    this.#policy = resolveApprovalPolicy(policy);
    this.level = this.#policy.level;
    this.frontDoor = frontDoor;
    this.#onAudit = options.onAudit;
    this.#maxAudit = options.maxAuditEntries !== undefined && options.maxAuditEntries >= 0 ? Math.floor(options.maxAuditEntries) : 1000;
    this.#allowed = new ScopedAllowLists(options.maxConversations);
  }

  /**
   * Tools allowed with `always` by requests made outside any turn (no `conversationId` or
   * `turnId`: the manager used on its own). Turns of an agent have their own lists: `allowListFor`.
   *
   * @deprecated Allow-lists are per conversation; use `allowListFor(conversationId)`.
   */
  get sessionAllowList(): ReadonlySet<string> {
    return this.#allowed.of(undefined);
  }

  /**
   * The tools an operator allowed with `always` in a conversation (a string), or in a scope
   * (`{ turnId }` for a turn without a conversation id).
   *
   * @example
   * ```ts
   * await agent.complete({ message: 'deploy it', conversationId: 'c1' }); // operator: always
   * approval.allowListFor('c1').has('deploy'); // true
   * approval.allowListFor('c2').has('deploy'); // false
   * ```
   */
  allowListFor(scope: string | ConversationScope): ReadonlySet<string> {
    return this.#allowed.of(typeof scope === 'string' ? { conversationId: scope } : scope);
  }

  /**
   * Adds a tool to a conversation's allow-list, as an operator's `always` there would (a durable
   * store restores the lists it keeps this way).
   *
   * @example
   * ```ts
   * approval.allowInConversation('deploy', 'c1');
   * approval.allowListFor('c1').has('deploy'); // true
   * ```
   */
  allowInConversation(toolName: string, scope: string | ConversationScope): void {
    this.#allowed.allow(toolName, typeof scope === 'string' ? { conversationId: scope } : scope);
  }

  /**
   * Drops a conversation's allow-list (its tools prompt again); true when it had one.
   *
   * @example
   * ```ts
   * approval.forgetConversation('c1');
   * ```
   */
  forgetConversation(scope: string | ConversationScope): boolean {
    return this.#allowed.forget(typeof scope === 'string' ? { conversationId: scope } : scope);
  }

  /** Prompted decisions, oldest first (at most `maxAuditEntries`). */
  get auditLog(): readonly ApprovalAuditEntry[] {
    return this.#audit;
  }

  /**
   * What policy says about a tool now. Pass the tool so its risk counts; a bare name is a tool
   * that declares no risk (`'write'`: only the named lists and the allow-list approve it). Only
   * the allow-list of `scope` (the asking turn's conversation, else the turn) counts.
   *
   * @example
   * ```ts
   * manager.verdict({ name: 'lookup', risk: 'read' });       // 'approve' in supervised
   * manager.verdict('deploy', { conversationId: 'c1' });     // 'prompt' unless listed or allowed in c1
   * ```
   */
  verdict(tool: ApprovalSubject | string, scope?: ConversationScope): ApprovalVerdict {
    return this.#policy.verdict(typeof tool === 'string' ? { name: tool } : tool, this.#allowed.of(scope));
  }

  /**
   * Whether policy requires asking an operator before this tool runs.
   *
   * @example
   * ```ts
   * manager.needsPrompt({ name: 'web_fetch', risk: 'egress' }); // true in supervised
   * ```
   */
  needsPrompt(tool: ApprovalSubject | string, scope?: ConversationScope): boolean {
    return this.verdict(tool, scope) === 'prompt';
  }

  decide(request: ApprovalRequest, options: DecideOptions = {}): Observable<ApprovalDecision> {
    return new Observable<ApprovalDecision>((subscriber) => {
      const controller = new AbortController();
      let settled = false;
      const settle = (answer: unknown, error?: unknown, decidedBy = this.frontDoor.name): void => {
        if (settled) return;
        settled = true;
        if (answer === PAUSE_TURN) {
          // parked: nothing is decided or recorded until the turn resumes with an answer
          subscriber.next(PAUSED);
          subscriber.complete();
          return;
        }
        const decision = this.#toDecision(answer, error, decidedBy);
        if (decision.decision === 'always') this.#allowed.allow(request.toolName, request);
        this.#record(request, decision, options.now ?? Date.now);
        subscriber.next(decision);
        subscriber.complete();
      };
      if (options.answer !== undefined) {
        settle(options.answer.value, undefined, options.answer.decidedBy);
        return;
      }
      let input: unknown;
      let pending: boolean;
      try {
        input = this.frontDoor.ask(request, controller.signal);
        pending = isPendingAnswer(input); // reads the answer's `then` (or `lift`/`subscribe`): a getter may throw
      } catch (err) {
        settle(null, err);
        return;
      }
      if (!pending) {
        settle(input);
        return;
      }
      // deferred: `from` reads the answer again, and what it throws is the front door's failure too
      const sub = defer(() => answerInput(input))
        .pipe(take(1))
        .subscribe({ next: (answer) => settle(answer), error: (err: unknown) => settle(null, err), complete: () => settle(null) });
      return () => {
        sub.unsubscribe();
        if (!settled) controller.abort();
      };
    });
  }

  #toDecision(answer: unknown, error: unknown, by: string): Decided {
    if (typeof answer === 'string') {
      const word = answer.trim().toLowerCase();
      if (word === 'yes' || word === 'no' || word === 'always') return { decision: word, decidedBy: by, byOperator: true };
    } else if (answer !== null && typeof answer === 'object') {
      const text = readReplacement(answer);
      if (text !== undefined) return { decision: 'replace', decidedBy: by, byOperator: true, replacement: sanitizeReplacement(text) };
    }
    return { decision: 'no', decidedBy: 'policy', byOperator: false, ...(error !== undefined ? { error } : {}) };
  }

  #record(request: ApprovalRequest, decision: Decided, now: () => number): void {
    const entry: ApprovalAuditEntry = Object.freeze({
      timestamp: new Date(now()).toISOString(),
      requestId: request.requestId,
      toolName: request.toolName,
      argumentsSummary: request.argumentsSummary,
      decision: decision.decision,
      decidedBy: decision.decidedBy,
      byOperator: decision.byOperator,
      channel: request.channel,
    });
    if (this.#maxAudit > 0) {
      this.#audit.push(entry);
      if (this.#audit.length > this.#maxAudit) this.#audit.splice(0, this.#audit.length - this.#maxAudit);
    }
    try {
      this.#onAudit?.(entry);
    } catch {
      // an audit sink that throws must not change the decision
    }
  }
}

/** The `replaceWith` text of an answer, read once (a throwing getter counts as no answer). */
function readReplacement(answer: object): string | undefined {
  try {
    const text: unknown = (answer as { replaceWith?: unknown }).replaceWith;
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
