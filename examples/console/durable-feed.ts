import { concatMap, from, map, type Subscription } from 'rxjs';
import { formatFullArgs, scrubCredentials, shownToolName, type ApprovalRequest, type TurnEvent } from '../../src/index.js';
import { turnEvents, type DurableAgent, type StoredDecision, type StoredTurn, type TurnStatus } from '../../src/durable/index.js';
import type { ConsoleSession } from './console-session.js';
import { scrubTextDeltas } from './scrub-text-deltas.js';
import type { ConsoleEvent, OperatorAnswer } from './wire.js';

export interface DurableFeedOptions {
  /** The `decidedBy` of this console's decisions in the store (and its audit log). */
  readonly decidedBy: string;
  /** Which of the agent's turns the console shows and decides (a tenant's, a team's). Default all. */
  readonly showTurn?: (turn: StoredTurn) => boolean;
}

/** A pending approval of a parked turn, as `GET /api/approvals` lists it. */
export interface ParkedApproval {
  readonly turnId: string;
  readonly conversationId: string | null;
  readonly requestId: string;
  readonly toolName: string;
  readonly argumentsSummary: string;
  readonly arguments: string;
}

/** What a decision sent through the console did in the store. */
export type StoreDecision =
  | { readonly status: 'accepted'; readonly decision: StoredDecision }
  | { readonly status: 'taken'; readonly winner: StoredDecision }
  | { readonly status: 'unknown' };

interface Followed {
  /** The console turn its records carry. */
  readonly turn: number;
  readonly turnId: string;
  /** Requests shown with controls, and those of them whose decision was shown. */
  readonly opened: Set<string>;
  readonly answered: Set<string>;
  subscription?: Subscription;
  /** Called on the next change of the turn's row (see `untilParked`). */
  rowChanged?: () => void;
}

export const ACTIVE: readonly TurnStatus[] = ['queued', 'running', 'parked'];
/** How many turn ids the feed remembers having seen (so a late change never replays a turn twice). */
const REMEMBERED = 10_000;

/**
 * The console's view of a `TurnStore`: every turn of the durable agent that is queued, running
 * or parked when the console starts, or that any instance starts later, is followed — its events
 * replayed, then followed (`turnEvents`), and put into the session's log as records of a console
 * turn of its own — so the page shows, and decides, turns that run or park in other processes.
 * A parked turn's pending requests open as approval cards without a deadline (the turn waits in
 * the store); a decision anywhere closes them. Decisions go through `durable.decide`: the first
 * one on any instance wins. (The page's own turns: `StoreTurns`.)
 */
export class DurableFeed {
  private readonly followed = new Map<string, Followed>();
  private readonly seen = new Set<string>();
  /** Request id → turn id, for the requests open on the page. */
  private readonly requests = new Map<string, string>();
  /** Request id → the tab of this console whose decision is being recorded. */
  private readonly tabs = new Map<string, string>();
  private readonly inflight = new Map<string, Promise<StoreDecision>>();
  private stopWatch: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly durable: DurableAgent,
    private readonly session: ConsoleSession,
    private readonly options: DurableFeedOptions,
  ) {}

  private get store() {
    return this.durable.store;
  }

  /** Whether the console shows (and may decide) a turn: the agent's, and chosen by `showTurn`. */
  private shows(turn: StoredTurn | undefined): turn is StoredTurn {
    return turn !== undefined && turn.agent === this.durable.agent.resolved.name && (this.options.showTurn?.(turn) ?? true);
  }

  /** Watches the store, then follows the turns that are active now. */
  async start(): Promise<void> {
    this.stopWatch = this.store.watch((change) => {
      const followed = this.followed.get(change.turnId);
      if (followed) {
        if (change.kind === 'decision') void this.announceDecisions(followed);
        if (change.kind === 'turn') followed.rowChanged?.();
      } else if (change.kind === 'turn' && this.see(change.turnId)) {
        void this.store.getTurn(change.turnId).then((turn) => turn && this.follow(turn), () => undefined);
      }
    });
    for (const status of ACTIVE) {
      for (const turn of await this.store.listTurns({ status })) if (this.see(turn.turnId)) this.follow(turn);
    }
  }

  /** The pending approvals of the agent's parked turns, from the store (on whichever instance they parked). */
  async listPending(): Promise<ParkedApproval[]> {
    const list: ParkedApproval[] = [];
    for (const turn of await this.store.listTurns({ status: 'parked' })) {
      if (!this.shows(turn)) continue;
      const decided = new Set((await this.store.decisions(turn.turnId)).map((d) => d.requestId));
      for (const req of turn.pending) {
        if (decided.has(req.requestId)) continue;
        list.push({ turnId: turn.turnId, conversationId: turn.conversationId, requestId: req.requestId, toolName: shownToolName(req.toolName), argumentsSummary: req.argumentsSummary, arguments: fullArgs(req) });
      }
    }
    return list;
  }

  /**
   * Records a decision for a request of a parked turn (`turnId`, else the one whose card shows
   * `requestId`). A second decision — here, on another instance, before or after the turn went
   * on — is `taken`, with the winner's.
   */
  async decide(requestId: string, answer: OperatorAnswer, tab: string, turnId?: string): Promise<StoreDecision> {
    const running = this.inflight.get(requestId);
    if (running) {
      const first = await running;
      if (first.status === 'accepted') return { status: 'taken', winner: first.decision };
      if (first.status === 'taken') return first;
    }
    const attempt = this.record(requestId, answer, tab, turnId);
    this.inflight.set(requestId, attempt);
    try {
      return await attempt;
    } finally {
      if (this.inflight.get(requestId) === attempt) this.inflight.delete(requestId);
    }
  }

  close(): void {
    this.closed = true;
    this.stopWatch?.();
    for (const f of this.followed.values()) f.subscription?.unsubscribe();
    this.followed.clear();
  }

  /** True the first time a turn id is seen (remembers the latest `REMEMBERED`, never a followed one). */
  private see(turnId: string): boolean {
    if (this.seen.has(turnId)) return false;
    this.seen.add(turnId);
    for (const old of this.seen) {
      if (this.seen.size <= REMEMBERED) break;
      if (!this.followed.has(old)) this.seen.delete(old);
    }
    return true;
  }

  private follow(turn: StoredTurn): void {
    if (this.closed || !this.shows(turn) || this.followed.has(turn.turnId)) return;
    const f: Followed = { turn: this.session.nextTurn(), turnId: turn.turnId, opened: new Set(), answered: new Set() };
    this.followed.set(turn.turnId, f);
    this.append(f, { type: 'turn-start', message: turn.input.message });
    f.subscription = turnEvents(this.store, turn.turnId)
      .pipe(
        map(({ event }) => event),
        scrubTextDeltas(), // as for the console's own turns: a secret split between deltas is scrubbed whole
        concatMap((event) => from(this.show(f, event))),
      )
      .subscribe({ complete: () => void this.end(f), error: (err: unknown) => void this.end(f, err) });
  }

  private async show(f: Followed, event: TurnEvent): Promise<void> {
    if (event.type === 'approval-decision') {
      await this.announceDecisions(f); // who decided comes first, whichever the store told first
      this.release(f, event.requestId);
    }
    this.append(f, event);
    if (event.type !== 'done' || event.reason !== 'paused') return;
    await this.untilParked(f, event.pending ?? []);
    for (const req of event.pending ?? []) {
      f.opened.add(req.requestId);
      this.requests.set(req.requestId, f.turnId);
      this.session.pin(req.requestId);
      this.append(f, { type: 'approval-open', requestId: req.requestId, toolName: shownToolName(req.toolName), argumentsSummary: req.argumentsSummary, arguments: fullArgs(req) });
    }
    await this.announceDecisions(f);
  }

  /**
   * Waits for the turn's row to hold the requests a paused `done` names: the log has that event a
   * moment before the row is parked, and until then a decision would not find them pending.
   */
  private async untilParked(f: Followed, pending: readonly ApprovalRequest[]): Promise<void> {
    for (;;) {
      const changed = new Promise<void>((resolve) => (f.rowChanged = resolve));
      const row = await this.store.getTurn(f.turnId).catch(() => undefined);
      const holds = (id: string): boolean => row?.pending.some((p) => p.requestId === id) ?? false;
      if (!row || row.status !== 'running' || pending.every((r) => holds(r.requestId)) || this.followed.get(f.turnId) !== f) return;
      await changed;
    }
  }

  /** Shows the decisions recorded (here or on any instance) for the turn's open requests. */
  private async announceDecisions(f: Followed): Promise<void> {
    if ([...f.opened].every((id) => f.answered.has(id))) return;
    const decisions = await this.store.decisions(f.turnId).catch(() => []); // retried on the next change
    for (const d of decisions) {
      if (!f.opened.has(d.requestId) || f.answered.has(d.requestId) || this.followed.get(f.turnId) !== f) continue;
      f.answered.add(d.requestId);
      const tab = this.tabs.get(d.requestId) ?? '';
      this.tabs.delete(d.requestId);
      this.release(f, d.requestId);
      const answer = typeof d.decision === 'string' ? { answer: d.decision } : { answer: 'replace' as const, replaceWith: d.decision.replaceWith };
      this.append(f, { type: 'approval-answered', requestId: d.requestId, ...answer, tab, decidedBy: d.decidedBy });
    }
  }

  /** A request no longer waits: its card's record may leave the log. */
  private release(f: Followed, requestId: string): void {
    if (this.requests.get(requestId) === f.turnId) this.requests.delete(requestId);
    this.session.unpin(requestId);
  }

  private async end(f: Followed, err?: unknown): Promise<void> {
    if (this.followed.get(f.turnId) !== f) return;
    this.followed.delete(f.turnId);
    for (const id of f.opened) this.release(f, id);
    let error = err === undefined ? undefined : errorText(err);
    if (error === undefined) {
      const row = await this.store.getTurn(f.turnId).catch(() => undefined);
      if (row?.status === 'failed') error = row.outcome?.text ?? 'The turn failed.';
    }
    if (this.closed) return;
    this.append(f, error === undefined ? { type: 'turn-end' } : { type: 'turn-end', error: scrubCredentials(error) });
  }

  private async record(requestId: string, answer: OperatorAnswer, tab: string, turnId?: string): Promise<StoreDecision> {
    const known = this.requests.get(requestId);
    const id = turnId ?? known;
    if (id === undefined) return { status: 'unknown' };
    if (id !== known && !this.shows(await this.store.getTurn(id))) return { status: 'unknown' };
    this.tabs.set(requestId, tab);
    let accepted = false;
    try {
      const outcome = await this.durable.decide(id, requestId, answer, this.options.decidedBy);
      if (outcome.status === 'accepted') {
        accepted = true;
        return { status: 'accepted', decision: outcome.decision };
      }
      if (outcome.status === 'taken') return outcome;
      // not pending any more: decided, and the turn went on (or it never was this turn's)
      const winner = (await this.store.decisions(id)).find((d) => d.requestId === requestId);
      return winner ? { status: 'taken', winner } : { status: 'unknown' };
    } finally {
      // the tab stays until the card shows the decision (announceDecisions takes it)
      if (!accepted || (this.followed.get(id)?.answered.has(requestId) ?? true)) this.tabs.delete(requestId);
    }
  }

  private append(f: Followed, event: TurnEvent | ConsoleEvent): void {
    this.session.append(event, f.turn, f.turnId);
  }
}

const fullArgs = (req: ApprovalRequest): string => formatFullArgs(req.arguments, { width: Infinity, indent: '' });

export const errorText = (err: unknown): string => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));
