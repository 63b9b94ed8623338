import type { TurnSnapshot } from '../core/turn-snapshot.js';
import type { IterationContext, TurnContext } from './resolved-execution.js';

/**
 * The context of the iteration that `snapshot` starts (its `iteration` already counted): the
 * model and prompt-loop signatures the iteration's stages may change, copied from the snapshot.
 *
 * @example
 * ```ts
 * const it = iterationContext(turn, { ...snapshot, iteration: snapshot.iteration + 1 });
 * callProvider(it, buildRequest(it));
 * ```
 */
export function iterationContext(turn: TurnContext, snapshot: TurnSnapshot): IterationContext {
  return {
    turn,
    resolved: turn.resolved,
    snapshot,
    iteration: snapshot.iteration,
    model: snapshot.model,
    promptSignatures: hasKeys(snapshot.promptSignatures) ? new Map(Object.entries(snapshot.promptSignatures)) : new Map(),
  };
}

function hasKeys(record: object): boolean {
  for (const _ in record) return true;
  return false;
}
