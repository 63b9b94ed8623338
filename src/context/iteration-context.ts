import type { PromptSignature, TurnSnapshot } from '../core/turn-snapshot.js';
import type { IterationContext, ResolvedAgentExecution, TurnContext } from './resolved-execution.js';

/**
 * The context of the iteration that `snapshot` starts (its `iteration` already counted): the
 * model and prompt-loop signatures the iteration's stages may change, copied from the snapshot.
 * The signatures' Map is made when first read: only a turn with approvals that prompt writes
 * one, and a turn makes one context per iteration.
 *
 * @example
 * ```ts
 * const it = iterationContext(turn, { ...snapshot, iteration: snapshot.iteration + 1 });
 * callProvider(it, buildRequest(it));
 * ```
 */
export function iterationContext(turn: TurnContext, snapshot: TurnSnapshot): IterationContext {
  return new Iteration(turn, snapshot);
}

/**
 * The iteration's prompt-loop signatures if a stage has read or written them: undefined, without
 * making the Map, when none did (they are then the snapshot's, unchanged). A context that is not
 * `iterationContext`'s answers its own Map.
 *
 * @example
 * ```ts
 * const signatures = promptSignaturesOf(it) ?? new Map(Object.entries(it.snapshot.promptSignatures));
 * ```
 */
export function promptSignaturesOf(it: IterationContext): Map<string, PromptSignature> | undefined {
  return it instanceof Iteration ? it.signaturesIfMade() : it.promptSignatures;
}

class Iteration implements IterationContext {
  readonly resolved: ResolvedAgentExecution;
  readonly iteration: number;
  model: string;
  #signatures: Map<string, PromptSignature> | undefined = undefined;

  constructor(
    readonly turn: TurnContext,
    readonly snapshot: TurnSnapshot,
  ) {
    this.resolved = turn.resolved;
    this.iteration = snapshot.iteration;
    this.model = snapshot.model;
  }

  get promptSignatures(): Map<string, PromptSignature> {
    return (this.#signatures ??= new Map(Object.entries(this.snapshot.promptSignatures)));
  }

  /** The Map, if `promptSignatures` was read. */
  signaturesIfMade(): Map<string, PromptSignature> | undefined {
    return this.#signatures;
  }
}
