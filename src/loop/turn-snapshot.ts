import type { TurnInput } from '../core/turn-input.js';
import { NO_ITEMS } from '../core/no-items.js';
import { TURN_SNAPSHOT_VERSION, type BatchSnapshot, type LoopWindow, type SlotState, type TurnSnapshot } from '../core/turn-snapshot.js';
import type { IterationContext, PrepContext, TurnContext } from '../context/resolved-execution.js';
import { promptSignaturesOf } from '../context/iteration-context.js';
import { outputFingerprint } from './output-fingerprint.js';
import type { Round } from './round.js';

/** A loop detector's window with nothing in it. */
export const EMPTY_LOOP_WINDOW: LoopWindow = Object.freeze({ names: [], argsJson: [], outputs: [], batches: [], start: 0, batch: 0 });

/** A turn's first snapshot has no prompt-loop signatures: one frozen record for every turn (a snapshot's records are never changed, only replaced). */
const NO_SIGNATURES: TurnSnapshot['promptSignatures'] = Object.freeze({});

/**
 * The snapshot a new turn starts from: the input history, then the user message; no iteration
 * counted yet; for a turn with an output schema, its fingerprint and no retry yet (`output`).
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
  const message = { role: 'user' as const, content: input.message };
  // sized to what it holds: a spread of nothing reserves room for 16 (the turn keeps this one alive)
  const history = input.history?.length ? [...input.history, message] : [message];
  const activated = turn.activated.names();
  const first: TurnSnapshot = {
    version: TURN_SNAPSHOT_VERSION,
    agent: resolved.name,
    turnId: turn.turnId,
    ingress: turn.ingress,
    scope,
    history,
    iteration: 0,
    model: resolved.model,
    malformedRetries: 0,
    notes: NO_ITEMS,
    receipts: NO_ITEMS,
    promptSignatures: NO_SIGNATURES,
    loopWindow: EMPTY_LOOP_WINDOW,
    activated,
    steering: NO_ITEMS,
    usage: { inputTokens: 0, outputTokens: 0 },
  };
  // conversationId set fourth by snapshotWith, not spread (bench/RESULTS.md, "Choices in src/ made for speed")
  const started = turn.conversationId === undefined ? first : snapshotWith(first, { conversationId: turn.conversationId });
  return turn.output === undefined ? started : { ...started, output: { fingerprint: outputFingerprint(turn.output.format), retries: 0 } };
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
  return snapshotWith(it.snapshot, changes, it);
}

/**
 * `{ ...snapshot, ...changes }` (a field of `changes` that is undefined keeps the snapshot's),
 * written out as one literal with the snapshot's keys in their order, not spread
 * (bench/RESULTS.md, "Choices in src/ made for speed").
 * With an iteration, the model, prompt-loop signatures and activated tools are the iteration's
 * and the notes are consumed, unless `changes` names them (`nextSnapshot`). A snapshot with a
 * batch in flight or structured output (`output`) is rare and takes the spread.
 *
 * @example
 * ```ts
 * const next = snapshotWith(snapshot, { iteration: snapshot.iteration + 1, steering: [] });
 * ```
 */
export function snapshotWith(s: TurnSnapshot, c: Partial<TurnSnapshot>, it?: IterationContext): TurnSnapshot {
  const model = c.model ?? (it ? it.model : s.model);
  const promptSignatures = c.promptSignatures ?? (it ? signaturesAfter(it, s) : s.promptSignatures);
  const activated = c.activated ?? (it ? it.turn.activated.names() : s.activated);
  const notes = c.notes ?? (it ? NO_ITEMS : s.notes);
  if (c.batch !== undefined || 'batch' in s || c.output !== undefined || 'output' in s) return { ...s, ...c, model, promptSignatures, activated, notes };
  const conversationId = c.conversationId ?? s.conversationId;
  // two literals, not a conditional spread (see startSnapshot); the keys of a spread, in its order
  if (conversationId !== undefined) {
    return {
      version: c.version ?? s.version,
      agent: c.agent ?? s.agent,
      turnId: c.turnId ?? s.turnId,
      conversationId,
      ingress: c.ingress ?? s.ingress,
      scope: c.scope ?? s.scope,
      history: c.history ?? s.history,
      iteration: c.iteration ?? s.iteration,
      model,
      malformedRetries: c.malformedRetries ?? s.malformedRetries,
      notes,
      receipts: c.receipts ?? s.receipts,
      promptSignatures,
      loopWindow: c.loopWindow ?? s.loopWindow,
      activated,
      steering: c.steering ?? s.steering,
      usage: c.usage ?? s.usage,
    };
  }
  return {
    version: c.version ?? s.version,
    agent: c.agent ?? s.agent,
    turnId: c.turnId ?? s.turnId,
    ingress: c.ingress ?? s.ingress,
    scope: c.scope ?? s.scope,
    history: c.history ?? s.history,
    iteration: c.iteration ?? s.iteration,
    model,
    malformedRetries: c.malformedRetries ?? s.malformedRetries,
    notes,
    receipts: c.receipts ?? s.receipts,
    promptSignatures,
    loopWindow: c.loopWindow ?? s.loopWindow,
    activated,
    steering: c.steering ?? s.steering,
    usage: c.usage ?? s.usage,
  };
}

/**
 * A batch as a snapshot holds it between the response and the round's history: the round, each
 * slot's state, the prompt-loop signatures of the batch, the prepared tools' schema
 * fingerprints, and the names `prepareIteration` narrowed the iteration's tools to (when it did),
 * so a resumed batch is prepared against the same tools. Parking at an approval, parking at a
 * sub-agent and the journal's prepared round all write it this way.
 *
 * @example
 * ```ts
 * const batch = batchSnapshot(it, round, slots, ctx, toolSchemas);
 * ```
 */
export function batchSnapshot(
  it: IterationContext,
  round: Round,
  slots: readonly SlotState[],
  ctx: PrepContext,
  toolSchemas: Readonly<Record<string, string>>,
): BatchSnapshot {
  const { offered } = it.turn.tools;
  return {
    text: round.text,
    fromText: round.fromText,
    calls: round.calls,
    ...(round.reasoning ? { reasoning: round.reasoning } : {}),
    slots,
    promptedInBatch: [...ctx.promptedInBatch],
    toolSchemas,
    ...(offered === undefined ? {} : { offered: [...offered] }),
  };
}

/** The prompt-loop signatures after `it`: its Map's if a stage made it, else its snapshot's (else `s`'s, when both have none). */
function signaturesAfter(it: IterationContext, s: TurnSnapshot): TurnSnapshot['promptSignatures'] {
  const made = promptSignaturesOf(it);
  if (made !== undefined) return made.size > 0 ? Object.fromEntries(made) : s.promptSignatures;
  // (nextSnapshot passes the iteration's own snapshot: its record, whether it has keys or not)
  return s === it.snapshot || hasKeys(it.snapshot.promptSignatures) ? it.snapshot.promptSignatures : s.promptSignatures;
}

function hasKeys(record: object): boolean {
  for (const _ in record) return true;
  return false;
}
