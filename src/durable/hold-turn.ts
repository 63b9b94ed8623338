import { Observable, ReplaySubject } from 'rxjs';
import type { TurnEvent } from '../core/events.js';
import { fromAbortSignal } from '../core/from-abort-signal.js';
import { TurnTakenOverError } from './durable-errors.js';
import type { StoredTurn, TurnStore } from './turn-store.js';

/** How a worker holds the turn it claimed. */
export interface HoldOptions {
  /** How long the lease lasts after each renewal (ms). */
  readonly leaseMs: number;
  /** How often a live worker renews it (ms); below `leaseMs`. */
  readonly heartbeatMs: number;
  /** The caller's own cancel, if any. */
  readonly signal?: AbortSignal;
}

/** What the run of a held turn is given: its signal (aborted by a cancel from any instance) and its steering messages. */
export interface HeldTurn {
  readonly signal: AbortSignal;
  readonly steering: Observable<string>;
}

/**
 * Runs a claimed turn while holding it. It reads the turn's controls first — a cancel recorded
 * while the turn was queued or parked aborts the run's signal before anything runs — then on
 * every control its store reports for the turn, from any instance: a cancel aborts the signal
 * (the turn ends `cancelled`, its finished results kept), a steering message joins the run's
 * steering (kept for the run until it listens). Every `heartbeatMs` it renews the lease; a
 * renewal refused means another worker took the turn over, and the run is torn down at once
 * (its tools' signals abort) with a `TurnTakenOverError`. A failed renewal or read is tried
 * again at the next beat or control.
 *
 * ```
 * run:       -a-b-------c-(d|)
 * heartbeat: ----h----h---          h: the lease renewed
 * control:   ------x                x: a cancel — the signal aborts; the run ends
 * result:    -a-b-------c-(d|)
 * ```
 * @example
 * ```ts
 * holdTurn(store, claimed, { leaseMs: 30_000, heartbeatMs: 10_000 }, ({ signal, steering }) =>
 *   agent.run({ message, signal, steering, journal }).pipe(persistTurn(target)));
 * ```
 */
export function holdTurn(store: TurnStore, turn: StoredTurn, options: HoldOptions, run: (held: HeldTurn) => Observable<TurnEvent>): Observable<TurnEvent> {
  const { turnId, attempt } = turn;
  return new Observable<TurnEvent>((subscriber) => {
    const controller = new AbortController();
    const steering = new ReplaySubject<string>();
    subscriber.add(fromAbortSignal(options.signal).subscribe(() => controller.abort()));
    subscriber.add(() => steering.complete());
    let reading: Promise<void> = Promise.resolve();
    /** Reads the controls once after every hint, one read after the other (a failed one does not stop the next). */
    const read = (): Promise<void> => {
      const next = reading.then(async () => {
        if (subscriber.closed) return;
        const taken = await store.takeControls(turnId, attempt);
        for (const message of taken.steering) steering.next(message);
        if (taken.cancelledBy !== undefined) controller.abort();
      });
      reading = next.catch(() => undefined);
      return next;
    };
    subscriber.add(store.watchControls(turnId, () => void read().catch(() => undefined)));
    const beat = setInterval(() => {
      store.renewLease(turnId, attempt, options.leaseMs).then(
        (held) => held || subscriber.error(new TurnTakenOverError(turnId)),
        () => undefined, // the store is out of reach: the next beat tries again
      );
    }, options.heartbeatMs);
    beat.unref?.();
    subscriber.add(() => clearInterval(beat));
    read().then(
      () => {
        if (!subscriber.closed) subscriber.add(run({ signal: controller.signal, steering }).subscribe(subscriber));
      },
      (err: unknown) => subscriber.error(err),
    );
  });
}
