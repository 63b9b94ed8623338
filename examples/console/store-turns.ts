import { randomUUID } from 'node:crypto';
import type { Subscription } from 'rxjs';
import { scrubCredentials } from '../../src/index.js';
import type { DurableAgent } from '../../src/durable/index.js';
import type { ConsoleSession } from './console-session.js';
import { ACTIVE, errorText } from './durable-feed.js';

export interface StoreTurnsOptions {
  /** The ingress channel of the turns the page starts. */
  readonly channel: string;
  /** The conversation the page's turns belong to. */
  readonly conversationId: string;
}

/**
 * The page's own turns on a durable console: run here with `durable.run` in the console's
 * conversation, one at a time (busy while a turn of it is queued, running or parked anywhere).
 * The page sees them as every instance does — from the store, through `DurableFeed` — so this
 * only drives the run; a turn the store refused to record is reported to the page here.
 */
export class StoreTurns {
  private local: { controller: AbortController; subscription?: Subscription } | undefined;
  private closed = false;

  constructor(
    private readonly durable: DurableAgent,
    private readonly session: ConsoleSession,
    private readonly options: StoreTurnsOptions,
  ) {}

  async start(message: string): Promise<'started' | 'busy'> {
    if (this.local) return 'busy';
    const mine = await this.durable.store.listTurns({ conversationId: this.options.conversationId });
    if (this.local || mine.some((t) => ACTIVE.includes(t.status))) return 'busy';
    const controller = new AbortController();
    const local: NonNullable<StoreTurns['local']> = { controller };
    this.local = local;
    const turnId = randomUUID();
    const finish = (err?: unknown): void => {
      if (this.local === local) this.local = undefined;
      if (err !== undefined) void this.reportUnrecorded(turnId, err);
    };
    local.subscription = this.durable
      .run({ message, conversationId: this.options.conversationId, signal: controller.signal, ingress: { channel: this.options.channel, turnId } })
      .subscribe({ error: finish, complete: () => finish() });
    return 'started';
  }

  /** Cancels the turn this console runs (a turn parked or running elsewhere is not this console's to stop). */
  cancel(): boolean {
    if (!this.local) return false;
    this.local.controller.abort();
    return true;
  }

  close(): void {
    this.closed = true;
    this.local?.subscription?.unsubscribe();
    this.local = undefined;
  }

  /** A turn that errored before the store had it: the feed never sees it, so the page hears of it here. */
  private async reportUnrecorded(turnId: string, err: unknown): Promise<void> {
    if (this.closed || (await this.durable.store.getTurn(turnId).catch(() => undefined))) return;
    this.session.append({ type: 'turn-end', error: scrubCredentials(errorText(err)) }, this.session.nextTurn(), turnId);
  }
}
