import type { TurnInput } from '../core/turn-input.js';
import { TURN_SNAPSHOT_VERSION, type LoopWindow, type TurnSnapshot } from '../core/turn-snapshot.js';
import type { IterationContext, TurnContext } from '../runtime/resolved-execution.js';

/** A loop detector's window with nothing in it. */
export const EMPTY_LOOP_WINDOW: LoopWindow = Object.freeze({ names: [], argsJson: [], outputs: [], batches: [], start: 0, batch: 0 });

/**
 * The snapshot a new turn starts from: the input history, then the user message; no iteration
 * counted yet.
 *
 * @example
 * ```ts
 * const turn = createTurnContext(resolved, input);
 * iterate(turn, startSnapshot(turn, input));
 * ```
 */
export function startSnapshot(turn: TurnContext, input: Pick<TurnInput, 'message' | 'history' | 'tools'>): TurnSnapshot {
  const { resolved } = turn;
  const scope = input.tools !== undefined ? { message: input.message, tools: [...input.tools] } : { message: input.message };
  const history = [...(input.history ?? []), { role: 'user' as const, content: input.message }];
  const activated = turn.activated.names();
  // Two literals instead of `...(id ? { conversationId } : {})` mid-literal, which takes V8's
  // generic copy for the whole object (bench/RESULTS.md, "Object spread"); same keys, same order.
  if (turn.conversationId !== undefined) {
    return {
      version: TURN_SNAPSHOT_VERSION,
      agent: resolved.name,
      turnId: turn.turnId,
      conversationId: turn.conversationId,
      ingress: turn.ingress,
      scope,
      history,
      iteration: 0,
      model: resolved.model,
      malformedRetries: 0,
      notes: [],
      receipts: [],
      promptSignatures: {},
      loopWindow: EMPTY_LOOP_WINDOW,
      activated,
      steering: [],
      usage: { inputTokens: 0, outputTokens: 0 },
    };
  }
  return {
    version: TURN_SNAPSHOT_VERSION,
    agent: resolved.name,
    turnId: turn.turnId,
    ingress: turn.ingress,
    scope,
    history,
    iteration: 0,
    model: resolved.model,
    malformedRetries: 0,
    notes: [],
    receipts: [],
    promptSignatures: {},
    loopWindow: EMPTY_LOOP_WINDOW,
    activated,
    steering: [],
    usage: { inputTokens: 0, outputTokens: 0 },
  };
}

/**
 * The snapshot an iteration ends with: its own snapshot, with what its stages changed (the
 * model, the prompt-loop signatures, the activated tools), the notes consumed, and `changes`.
 *
 * @example
 * ```ts
 * nextSnapshot(it, { history, receipts });
 * ```
 */
export function nextSnapshot(it: IterationContext, changes: Partial<TurnSnapshot>): TurnSnapshot {
  const next: TurnSnapshot = {
    ...it.snapshot,
    model: it.model,
    promptSignatures: it.promptSignatures.size > 0 ? Object.fromEntries(it.promptSignatures) : it.snapshot.promptSignatures,
    activated: it.turn.activated.names(),
    notes: [],
  };
  // Object.assign, not a second spread: `...changes` goes through V8's generic copy (bench/RESULTS.md, "Object spread")
  return Object.assign(next, changes);
}
