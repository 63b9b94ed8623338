import { Observable } from 'rxjs';
import { formatFullArgs, shownToolName, type ApprovalRequest } from '../../src/index.js';
import type { ConsoleEvent, OperatorAnswer, UnansweredReason } from './wire.js';

export interface PendingApprovalsOptions {
  /** How long an operator has to answer; then the request is unanswerable. */
  readonly timeoutMs: number;
  /** How long a request may wait with no page connected before it is unanswerable. */
  readonly graceMs: number;
  /** How many pages are watching right now. */
  readonly watchers: () => number;
  readonly publish: (event: ConsoleEvent) => void;
}

/** An `approval-open` record's event. */
export type OpenRequest = Extract<ConsoleEvent, { type: 'approval-open' }>;

/** Why an operator's decision was refused. */
export type DecideResult = 'accepted' | 'unknown' | 'already-decided';

/**
 * The approval requests of the current turn that wait for an operator. The first decision
 * wins; a timeout, a disconnect longer than the grace period or the turn's cancellation
 * answers `null` (unanswerable, so the manager denies by policy). Every timer and listener
 * is released when the request settles or its subscriber unsubscribes.
 */
export class PendingApprovals {
  private readonly pending = new Map<string, (answer: OperatorAnswer | null, reason: UnansweredReason) => void>();
  private readonly opened = new Map<string, OpenRequest>();
  /** The decided ids of the turn, with the operator's answer (null: unanswered). */
  private readonly settled = new Map<string, OperatorAnswer | null>();
  private graceTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: PendingApprovalsOptions) {}

  /** Ids still waiting for a decision. */
  get ids(): string[] {
    return [...this.pending.keys()];
  }

  /** The requests still waiting for a decision, as their `approval-open` records said. */
  list(): OpenRequest[] {
    return [...this.opened.values()];
  }

  /** The operator's answer that settled `requestId` in this turn (null: none, it went unanswered). */
  answerOf(requestId: string): OperatorAnswer | null | undefined {
    return this.settled.get(requestId);
  }

  /**
   * The front door's `request`: one answer, then complete.
   *
   * ```
   * request:   ^----------------|
   * operator:  ------- yes
   * answer:    -------(y|)
   * ```
   * @example
   * ```ts
   * backchannelApproval((req, signal) => approvals.request(req, signal));
   * ```
   */
  request(req: ApprovalRequest, signal?: AbortSignal): Observable<OperatorAnswer | null> {
    return new Observable<OperatorAnswer | null>((subscriber) => {
      const id = req.requestId;
      if (this.pending.has(id) || signal?.aborted) {
        subscriber.next(null);
        subscriber.complete();
        return undefined;
      }
      const settle = (answer: OperatorAnswer | null, reason: UnansweredReason): void => {
        if (!this.pending.delete(id)) return;
        this.opened.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.settled.set(id, answer);
        if (answer === null) this.options.publish({ type: 'approval-unanswered', requestId: id, reason });
        this.updateGrace();
        subscriber.next(answer);
        subscriber.complete();
      };
      const onAbort = (): void => settle(null, 'cancelled');
      const timer = setTimeout(() => settle(null, 'timeout'), this.options.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, settle);
      const open: OpenRequest = {
        type: 'approval-open',
        requestId: id,
        toolName: shownToolName(req.toolName), // a name can be shaped like a token: shown scrubbed
        argumentsSummary: req.argumentsSummary,
        arguments: formatFullArgs(req.arguments, { width: Infinity, indent: '' }),
        deadline: Date.now() + this.options.timeoutMs,
      };
      this.opened.set(id, open);
      this.options.publish(open);
      this.updateGrace();
      return () => settle(null, 'cancelled');
    });
  }

  /**
   * An operator's decision from one tab: accepted only while the request is pending.
   *
   * @example
   * ```ts
   * approvals.decide('req-1', 'yes', tabId); // 'accepted' | 'unknown' | 'already-decided'
   * ```
   */
  decide(requestId: string, answer: OperatorAnswer, tab: string): DecideResult {
    const settle = this.pending.get(requestId);
    if (!settle) return this.settled.has(requestId) ? 'already-decided' : 'unknown';
    this.options.publish(
      typeof answer === 'string'
        ? { type: 'approval-answered', requestId, answer, tab }
        : { type: 'approval-answered', requestId, answer: 'replace', replaceWith: answer.replaceWith, tab },
    );
    settle(answer, 'cancelled');
    return 'accepted';
  }

  /** Call when the number of watching pages changes. */
  updateGrace(): void {
    const orphaned = this.pending.size > 0 && this.options.watchers() === 0;
    if (!orphaned) {
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
    } else if (this.graceTimer === undefined) {
      this.graceTimer = setTimeout(() => {
        this.graceTimer = undefined;
        this.settleAll('disconnect');
      }, this.options.graceMs);
    }
  }

  /** Forgets the decided ids of the previous turn (decisions are per turn). */
  newTurn(): void {
    this.settled.clear();
  }

  /** Answers every pending request as unanswerable. */
  settleAll(reason: UnansweredReason): void {
    for (const settle of [...this.pending.values()]) settle(null, reason);
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }
}
