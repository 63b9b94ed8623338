import { BoundedMap } from '../core/bounded-map.js';
import { SnapshotReplayedError } from '../core/errors.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';

/** How many resumed snapshots a process remembers (the oldest forgotten first). */
export const MAX_CONSUMED_SNAPSHOTS = 10_000;

// agent, turn id, sequence and nonce of each parked snapshot resumed in this process
const consumed = new BoundedMap<string, true>(MAX_CONSUMED_SNAPSHOTS);

/**
 * Marks a sealed parked snapshot resumed in this process, or throws `SnapshotReplayedError` when
 * it was resumed here already: each snapshot resumes once. Keyed by agent, turn id, sequence and
 * the seal's nonce (a turn run again under the same id seals other snapshots); the last 10,000
 * are kept. A
 * durable store refuses a replay across processes (`TurnStore.claimSnapshot`).
 *
 * @example
 * ```ts
 * consumeSnapshot(checked.snapshot); // a second call with the same snapshot throws
 * ```
 */
export function consumeSnapshot(snapshot: TurnSnapshot): void {
  const seal = snapshot.seal!;
  const key = `${snapshot.agent}\0${snapshot.turnId}\0${seal.sequence}\0${seal.nonce}`;
  if (consumed.has(key)) throw new SnapshotReplayedError(snapshot.turnId, seal.sequence);
  consumed.set(key, true);
}
