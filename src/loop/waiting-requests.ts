import type { TurnSnapshot } from '../core/turn-snapshot.js';

/**
 * The ids of the approval requests a parked snapshot waits for: its call awaiting approval, and
 * the requests its parked sub-agents' snapshots wait for (`delegated` slots), at any depth.
 * Resuming needs a decision for each.
 *
 * @example
 * ```ts
 * const ids = waitingRequests(done.snapshot!); // the ids of done.pending
 * ```
 * @param snapshot A parked snapshot (`done.snapshot`), or any snapshot (none waits without a batch).
 * @return The ids, in slot order.
 */
export function waitingRequests(snapshot: TurnSnapshot | null | undefined): string[] {
  const ids: string[] = [];
  collect(snapshot, ids, 0);
  return ids;
}

/** Sub-agents nested deeper than this are not looked into (a stored snapshot is read before its seal is checked). */
const MAX_DEPTH = 32;

function collect(snapshot: TurnSnapshot | null | undefined, ids: string[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const slot of snapshot?.batch?.slots ?? []) {
    if (slot.state === 'awaiting-approval') ids.push(slot.request.requestId);
    else if (slot.state === 'delegated') collect(slot.child, ids, depth + 1);
  }
}
