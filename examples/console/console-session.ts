import { randomUUID } from 'node:crypto';
import type { Observable, Subscription } from 'rxjs';
import type { ApprovalRequest, ChatMessage, TurnEvent, TurnInput } from '../../src/index.js';
import { scrubCredentials } from '../../src/index.js';
import { PendingApprovals } from './pending-approvals.js';
import { scrubTextDeltas } from './scrub-text-deltas.js';
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
  /**
   * How many records the replay log keeps, oldest dropped first (the opening record of a
   * request still waiting for a decision is kept until it is decided). Default 1000.
   */
  readonly maxReplayRecords?: number;
  /**
   * The conversation every turn of the session belongs to (an operator's Always lasts as long as
   * it). Default: a new random id per session.
   */
  readonly conversationId?: string;
}

/** The default size of the replay log. */
export const MAX_REPLAY_RECORDS = 1000;

/**
 * One console session: a conversation of turns, the log of what the pages were shown (its
 * latest `maxReplayRecords`, replayed to each new connection, so a reconnecting page loses no
 * recent card nor any open request), the watching pages, and the approval requests waiting for
 * an operator.
 */
export class ConsoleSession {
  readonly approvals: PendingApprovals;
  private readonly log: WireRecord[] = [];
  private readonly watchers = new Set<(record: WireRecord) => void>();
  private readonly observers = new Set<(record: WireRecord) => void>();
  private readonly channel: string;
  /** The conversation of the session's turns: an Always allows the tool for the whole session. */
  readonly conversationId: string;
  private readonly maxRecords: number;
  /** Requests of turns followed elsewhere (a store) still waiting: their opening records stay in the log. */
  private readonly pinned = new Set<string>();
  private seq = 0;
  private turn = 0;
  private running: { controller: AbortController; subscription?: Subscription } | undefined;
  private history: readonly ChatMessage[] = [];
  private runner: TurnRunner | undefined;

  constructor(options: ConsoleSessionOptions = {}) {
    this.channel = options.channel ?? 'web-console';
    this.conversationId = options.conversationId ?? `console-${randomUUID()}`;
    const max = options.maxReplayRecords ?? MAX_REPLAY_RECORDS;
    this.maxRecords = Number.isFinite(max) && max >= 1 ? Math.floor(max) : MAX_REPLAY_RECORDS;
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
    return this.seq;
  }

  /** How many records the replay log holds now (at most `maxReplayRecords`, plus open requests). */
  get replayLength(): number {
    return this.log.length;
  }

  /** How many pages watch now as operators (an open event stream each). */
  get operators(): number {
    return this.watchers.size;
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
      .run({ message, history: this.history, signal: controller.signal, ingress: { channel: this.channel }, conversationId: this.conversationId })
      // the page joins the deltas in one bubble: a secret split between two must be scrubbed whole
      .pipe(scrubTextDeltas())
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
    this.pinned.clear();
  }

  /** A new console turn's number, for a turn that runs elsewhere (a store's). */
  nextTurn(): number {
    this.turn += 1;
    return this.turn;
  }

  /**
   * Logs and sends a record of a turn the console follows elsewhere (`turn` from `nextTurn`,
   * `turnId` the store's). `pin` keeps the record in the log until `unpin` (an open request).
   */
  append(event: TurnEvent | ConsoleEvent, turn: number, turnId: string): void {
    this.publish(event, turn, turnId);
  }

  /** Keeps the `approval-open` record of `requestId` in the replay log while it waits (see `append`). */
  pin(requestId: string): void {
    this.pinned.add(requestId);
  }

  unpin(requestId: string): void {
    this.pinned.delete(requestId);
  }

  private publish(event: TurnEvent | ConsoleEvent, turn = this.turn, turnId?: string): void {
    this.seq += 1;
    const record: WireRecord = { seq: this.seq, turn, ...(turnId === undefined ? {} : { turnId }), event: toWire(event) };
    this.log.push(record);
    this.trim();
    for (const send of [...this.watchers, ...this.observers]) send(record);
  }

  /** Drops the oldest records past the bound, keeping the opening records of pending requests. */
  private trim(): void {
    let excess = this.log.length - this.maxRecords;
    if (excess <= 0) return;
    const pending = new Set([...this.approvals.ids, ...this.pinned]);
    const isOpen = (r: WireRecord): boolean => r.event.type === 'approval-open' && pending.has(r.event.requestId);
    for (let i = 0; i < this.log.length && excess > 0; ) {
      if (isOpen(this.log[i])) {
        i += 1;
      } else {
        this.log.splice(i, 1);
        excess -= 1;
      }
    }
  }
}
