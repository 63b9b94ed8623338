import type { ObservableInput } from 'rxjs';
import type { ZodType } from 'zod';
import type { Ingress } from './ingress.js';
import type { LoopControlOptions } from './loop-control.js';
import type { ChatMessage } from './messages.js';
import type { TurnJournal } from './turn-journal.js';

/**
 * The per-message state of one turn. Its `stopWhen` and `prepareIteration` come after the agent's:
 * its conditions are added to the agent's, and its `prepareIteration` runs after the agent's (it
 * sees the tools and model the agent's left). Neither is part of a snapshot: a resumed turn has
 * the agent's, and those given to `resume`.
 */
export interface TurnInput extends LoopControlOptions {
  readonly message: string;
  readonly history?: readonly ChatMessage[];
  /** Aborting it cancels the turn: unfinished slots close `interrupted` and `done` says 'cancelled'. */
  readonly signal?: AbortSignal;
  /** User messages that arrive mid-turn; each is added at the start of the next iteration. */
  readonly steering?: ObservableInput<string>;
  /** Recalled context, injected into this turn's requests only (never returned in history). */
  readonly memory?: readonly string[];
  readonly ingress?: Ingress;
  /** Kept across the turns of one conversation: scopes spans (`gen_ai.conversation.id`) and snapshots. */
  readonly conversationId?: string;
  /**
   * Narrows this run's tools to these selectors (exact names, globs like `github__*`, or
   * `bundle:{name}`). It can only narrow: a selector never admits a tool the agent does not.
   */
  readonly tools?: readonly string[];
  /** Records the turn's progress for crash recovery (set by `rx-tool-loop/durable`). */
  readonly journal?: TurnJournal;
  /**
   * The final answer must be JSON matching this zod schema: each request asks for it (its JSON
   * Schema, named by the schema's `.meta({ title })` when that is a valid name, else `output`),
   * a reply that does not parse or validate is sent back with the problems, and `done.object`
   * holds the validated value (`StructuredOutputError` once `maxStructuredOutputRetries` ran out).
   */
  readonly output?: ZodType;
}

/**
 * `{ ...input, ...changes }`, spelled out with every key of `TurnInput` in one order, not spread
 * (bench/RESULTS.md, "Choices in src/ made for speed"). A key present in `changes` wins, even
 * when it holds `undefined`, as in a spread.
 *
 * @example
 * ```ts
 * const withIngress = turnInputWith(input, { ingress }); // the same layout every turn
 * ```
 */
export function turnInputWith(input: TurnInput, changes: Partial<TurnInput>): TurnInput {
  const copy: { [K in keyof Required<TurnInput>]: TurnInput[K] } = {
    message: 'message' in changes ? changes.message! : input.message,
    history: 'history' in changes ? changes.history : input.history,
    signal: 'signal' in changes ? changes.signal : input.signal,
    steering: 'steering' in changes ? changes.steering : input.steering,
    memory: 'memory' in changes ? changes.memory : input.memory,
    ingress: 'ingress' in changes ? changes.ingress : input.ingress,
    conversationId: 'conversationId' in changes ? changes.conversationId : input.conversationId,
    tools: 'tools' in changes ? changes.tools : input.tools,
    journal: 'journal' in changes ? changes.journal : input.journal,
    stopWhen: 'stopWhen' in changes ? changes.stopWhen : input.stopWhen,
    prepareIteration: 'prepareIteration' in changes ? changes.prepareIteration : input.prepareIteration,
    output: 'output' in changes ? changes.output : input.output,
  };
  return copy;
}
