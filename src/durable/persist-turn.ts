import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { thrownMessage } from '../core/read-thrown.js';
import type { TurnEvent } from '../core/events.js';
import { TurnTakenOverError } from './durable-errors.js';
import type { TurnStore } from './turn-store.js';

/** The turn a stream of events belongs to, and the claim its writes are fenced by. */
export interface PersistTarget {
  readonly store: TurnStore;
  readonly turnId: string;
  readonly conversationId: string | null;
  readonly attempt: number;
  /** Written with the turn's end, before its row says done (e.g. the conversation's activated tools). */
  readonly atEnd?: () => Promise<void>;
}

/**
 * Keeps a turn's events in its store as they pass: each event appended to the turn's log (a
 * burst in one write, in order — with the events that arrive while the write before it runs;
 * `done` without its history and snapshot, logged with the events still waiting in the write that
 * updates the row). The audit log and the allow-list are the journal's (`storeJournal`): it has the
 * tool's real name, the events a scrubbed one. Before `done` goes on, the turn's row says how it
 * ended — `parked` with its snapshot and pending requests, or `done` with the conversation's
 * history saved — so whoever sees `done` can rely on the store. Every write is fenced by the
 * claim's `attempt`: once another worker took the turn over, this one writes no event, history
 * or row, and the stream errors with `TurnTakenOverError` (as it does on any write that fails).
 *
 * ```
 * source: -a-b--(d|)
 * result: -a-b---(d|)     d waits for the writes before it
 * ```
 * @example
 * ```ts
 * agent.run(input).pipe(persistTurn({ store, turnId, conversationId: 'c1', attempt: 1 }));
 * ```
 */
export function persistTurn(target: PersistTarget): MonoTypeOperatorFunction<TurnEvent> {
  const { store, turnId, conversationId, attempt } = target;
  return (source) =>
    new Observable<TurnEvent>((subscriber) => {
      let queued: TurnEvent[] = [];
      let chain: Promise<void> = Promise.resolve();
      let scheduled = false;
      let failed = false;
      const then = (write: () => Promise<unknown>): Promise<void> => {
        chain = chain.then(async () => {
          await write();
        });
        chain.catch((err: unknown) => {
          if (failed) return;
          failed = true;
          subscriber.error(err);
        });
        return chain;
      };
      /** The events queued when the write's turn comes (those that arrived while an earlier write ran join it), in one write. */
      const flush = (): Promise<void> => {
        scheduled = false;
        return then(async () => {
          if (queued.length === 0) return;
          const events = queued;
          queued = [];
          if (!(await store.appendEvents(turnId, events, attempt))) throw new TurnTakenOverError(turnId);
        });
      };
      const sub = source.subscribe({
        next: (event) => {
          if (failed) return;
          if (event.type === 'done') {
            const { history: _h, snapshot, pending, ...shown } = event;
            void then(async () => {
              // the history first: whoever sees the turn done finds the conversation's history saved
              if (event.reason !== 'paused' && conversationId !== null && !(await store.saveHistory(conversationId, event.history, { turnId, attempt }))) {
                throw new TurnTakenOverError(turnId);
              }
              await target.atEnd?.();
              // the row and the logged done (after the events not yet written) in one step: a reader of the log finds the row parked (or done) already
              const events = [...queued, { ...shown, ...(pending ? { pending } : {}) } as TurnEvent];
              queued = [];
              const ok =
                event.reason === 'paused'
                  ? await store.updateTurn(turnId, attempt, { status: 'parked', snapshot: snapshot ?? null, pending: pending ?? [] }, events)
                  : await store.updateTurn(turnId, attempt, { status: 'done', snapshot: null, pending: [], outcome: { reason: event.reason, text: event.text } }, events);
              if (!ok) throw new TurnTakenOverError(turnId);
            }).then(
              () => {
                if (!failed) subscriber.next(event);
              },
              () => undefined, // failed: `then` errored the stream
            );
            return;
          }
          queued.push(event);
          subscriber.next(event);
          if (!scheduled) {
            scheduled = true;
            setImmediate(() => void flush());
          }
        },
        error: (err: unknown) => {
          void flush();
          const end = (): void => {
            if (!failed) subscriber.error(err);
          };
          void then(() => store.updateTurn(turnId, attempt, { status: 'failed', outcome: { reason: 'error', text: thrownMessage(err) } })).then(end, end);
        },
        complete: () => {
          void flush().then(
            () => {
              if (!failed) subscriber.complete();
            },
            () => undefined, // failed: `then` errored the stream
          );
        },
      });
      return () => sub.unsubscribe();
    });
}
