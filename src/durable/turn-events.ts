import { Observable } from 'rxjs';
import type { StoredEvent, TurnStore } from './turn-store.js';

/** Options of `turnEvents`. */
export interface TurnEventsOptions {
  /** Replay the events after this `seq` (0, the default: from the turn's first event). */
  readonly afterSeq?: number;
}

/**
 * A turn's events from its store, wherever the turn runs: the ones logged after `afterSeq`,
 * then each new one as any instance appends it — read after the last `seq` seen whenever the
 * store's `watch` reports an `event` change of the turn (LISTEN/NOTIFY on PostgreSQL, polling
 * elsewhere). Each event once, in `seq` order. A parked turn's stream waits for its resumption;
 * it completes after the turn ends — a `done` other than `paused`, or the turn's row `failed`
 * (its last events first) — and errors when the store does. Unsubscribing stops the watch.
 *
 * ```
 * store:   1-2-3-(4 paused)------5-6-(7 final)
 * events:  (1234)----------------5-6-(7|)      subscribed after 4: replayed at once
 * ```
 * @example
 * ```ts
 * turnEvents(store, turnId, { afterSeq: lastSeen }).subscribe(({ seq, event }) => console.log(seq, event.type));
 * ```
 */
export function turnEvents(store: TurnStore, turnId: string, options: TurnEventsOptions = {}): Observable<StoredEvent> {
  return new Observable<StoredEvent>((subscriber) => {
    let last = options.afterSeq ?? 0;
    let reading = false;
    let again = false;
    let checkRow = true; // the row may have failed before we watched
    let closed = false;

    const read = async (): Promise<void> => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          const failed = checkRow && (checkRow = false, (await store.getTurn(turnId))?.status === 'failed');
          for (const stored of await store.events(turnId, last)) {
            if (closed) return;
            last = Math.max(last, stored.seq);
            subscriber.next(stored);
            if (stored.event.type === 'done' && stored.event.reason !== 'paused') return end();
          }
          if (failed) return end(); // a failed row is written after the turn's last events
        } while (again && !closed);
      } catch (err) {
        if (!closed) subscriber.error(err);
      } finally {
        reading = false;
      }
    };
    const end = (): void => {
      closed = true;
      subscriber.complete();
    };

    const stop = store.watch((change) => {
      if (closed || change.turnId !== turnId) return;
      if (change.kind === 'turn') checkRow = true;
      if (change.kind !== 'decision') void read();
    });
    void read();
    return () => {
      closed = true;
      stop();
    };
  });
}
