import type { Observable, Subscription } from 'rxjs';
import type { ApprovalRequest, ChatMessage, TurnEvent, TurnInput } from '../../src/index.js';
import { scrubCredentials } from '../../src/index.js';
import { PendingApprovals } from './pending-approvals.js';
import { toWire, type ConsoleEvent, type OperatorAnswer, type WireRecord } from './wire.js';

/** Whatever runs a turn: an `Agent`, or anything with its `run`. */
export interface TurnRunner {
  run(input: TurnInput): Observable<TurnEvent>;
}

export interface ConsoleSessionOptions {
  /** How long an operator has to answer an approval request. Default 5 minutes. */
  readonly decisionTimeoutMs?: number;
  /** How long a request may wait with no page connected. Default 10 seconds (a reload fits). */
  readonly disconnectGraceMs?: number;
  /** The ingress channel of the console's turns. Default 'web-console'. */
  readonly channel?: string;
}

/**
 * One console session: a conversation of turns, the log of everything the pages were shown
 * (replayed to each new connection, so a reconnecting page loses no card), the watching pages,
 * and the approval requests waiting for an operator.
 */
export class ConsoleSession {
  readonly approvals: PendingApprovals;
  private readonly log: WireRecord[] = [];
  private readonly watchers = new Set<(record: WireRecord) => void>();
  private readonly observers = new Set<(record: WireRecord) => void>();
  private readonly channel: string;
  private turn = 0;
  private running: { controller: AbortController; subscription?: Subscription } | undefined;
  private history: readonly ChatMessage[] = [];
  private runner: TurnRunner | undefined;

  constructor(options: ConsoleSessionOptions = {}) {
    this.channel = options.channel ?? 'web-console';
    this.approvals = new PendingApprovals({
      timeoutMs: options.decisionTimeoutMs ?? 5 * 60_000,
      graceMs: options.disconnectGraceMs ?? 10_000,
      watchers: () => this.watchers.size,
      publish: (event) => this.publish(event),
    });
  }

  /** The backchannel front door's `request(req, signal)`. */
  readonly request = (req: ApprovalRequest, signal?: AbortSignal): Observable<OperatorAnswer | null> =>
    this.approvals.request(req, signal);

  /** Sets the agent whose turns the pages start. */
  serve(runner: TurnRunner): void {
    this.runner = runner;
  }

  /** The `seq` of the latest record (0 before the first). */
  get lastSeq(): number {
    return this.log.length;
  }

  get turnRunning(): boolean {
    return this.running !== undefined;
  }

  /**
   * Sends every record after `afterSeq`, then each new one, to `send` until the returned
   * function is called. A page counts as a connected operator (approval requests wait for one);
   * pass `{ operator: false }` for a watcher that cannot decide (a log, a test).
   *
   * @example
   * ```ts
   * const stop = session.watch(0, (record) => res.write(sse(record)));
   * ```
   */
  watch(afterSeq: number, send: (record: WireRecord) => void, options: { operator?: boolean } = {}): () => void {
    for (const record of this.log) if (record.seq > afterSeq) send(record);
    const set = options.operator === false ? this.observers : this.watchers;
    set.add(send);
    this.approvals.updateGrace();
    return () => {
      if (set.delete(send)) this.approvals.updateGrace();
    };
  }

  /** Starts a turn with the conversation so far. */
  startTurn(message: string): 'started' | 'busy' | 'no-agent' {
    if (!this.runner) return 'no-agent';
    if (this.running) return 'busy';
    const controller = new AbortController();
    const running: NonNullable<ConsoleSession['running']> = { controller };
    this.running = running;
    this.turn += 1;
    this.approvals.newTurn();
    this.publish({ type: 'turn-start', message });
    const end = (error?: string): void => {
      if (this.running !== running) return;
      this.running = undefined;
      this.approvals.settleAll('cancelled');
      this.publish(error === undefined ? { type: 'turn-end' } : { type: 'turn-end', error });
    };
    running.subscription = this.runner
      .run({ message, history: this.history, signal: controller.signal, ingress: { channel: this.channel } })
      .subscribe({
        next: (event) => {
          if (event.type === 'done') this.history = event.history;
          this.publish(event);
        },
        error: (err: unknown) => end(scrubCredentials(err instanceof Error ? `${err.name}: ${err.message}` : String(err))),
        complete: () => end(),
      });
    return 'started';
  }

  /** Cancels the running turn through its signal (open cards close as `interrupted`). */
  cancelTurn(): boolean {
    if (!this.running) return false;
    this.running.controller.abort();
    return true;
  }

  /** Tears the running turn down and releases every timer; the pages see nothing more. */
  close(): void {
    const running = this.running;
    this.running = undefined;
    running?.subscription?.unsubscribe();
    this.approvals.settleAll('cancelled');
    this.watchers.clear();
    this.observers.clear();
  }

  private publish(event: TurnEvent | ConsoleEvent): void {
    const record: WireRecord = { seq: this.log.length + 1, turn: this.turn, event: toWire(event) };
    this.log.push(record);
    for (const send of [...this.watchers, ...this.observers]) send(record);
  }
}
