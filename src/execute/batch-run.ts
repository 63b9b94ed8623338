import type { Logger } from '../observe/logger.js';
import type { ParkedDelegation, ResumedDelegation } from './parent-call.js';

/**
 * What the calls of one dispatched batch share, for calls that run a sub-agent's turn
 * (`delegateTool`): the handlers told of the turn's cancellation before the batch is cut (so what
 * the sub-agent's turn emits while it closes still reaches this turn's stream, before the call's
 * own `tool-result`); the calls whose sub-agent parked at an approval (no further call of the
 * batch starts, and the batch parks with them); and, in a resumed batch, the parked sub-agents'
 * snapshots with their decisions, by slot.
 *
 * @example
 * ```ts
 * const run = new BatchRun(resolved.logger, true);
 * dispatchBatch(it, batch, run).pipe(orderBySlot(), collectRound()); // then: run.parked
 * ```
 */
export class BatchRun {
  #onCancel: Set<() => void> | undefined = undefined;
  #parked: Map<number, ParkedDelegation> | undefined = undefined;

  /**
   * @param logger Where a cancellation handler that throws is logged.
   * @param parks Whether the loop that dispatches the batch parks it when a call parks (`iterate`'s does).
   * @param resumed In a resumed batch, the parked sub-agents' turns to resume, by slot.
   */
  constructor(
    private readonly logger: Logger,
    readonly parks = false,
    private readonly resumed?: ReadonlyMap<number, ResumedDelegation>,
  ) {}

  /** Runs `handler` when the turn is cancelled, before the batch is cut; the returned function forgets it. */
  onCancel(handler: () => void): () => void {
    const handlers = (this.#onCancel ??= new Set());
    const entry = (): void => handler(); // its own identity: the same handler may be given twice
    handlers.add(entry);
    return () => void handlers.delete(entry);
  }

  /** Tells every handler once, in the order they were given; a handler that throws is logged and ignored. */
  cancel(): void {
    const handlers = this.#onCancel;
    if (handlers === undefined) return;
    this.#onCancel = undefined;
    for (const handler of handlers) {
      try {
        handler();
      } catch (err) {
        this.logger.warn({ err }, 'cancellation handler threw; ignored');
      }
    }
  }

  /** Records that the call in `slot` parked with its sub-agent's turn; false when the batch cannot park (`parks`). */
  park(slot: number, parked: ParkedDelegation): boolean {
    if (!this.parks) return false;
    (this.#parked ??= new Map()).set(slot, parked);
    return true;
  }

  /** The calls parked so far, by slot (undefined while none has). */
  get parked(): ReadonlyMap<number, ParkedDelegation> | undefined {
    return this.#parked;
  }

  /** The parked sub-agent's turn the call in `slot` resumes, in a resumed batch. */
  resumedAt(slot: number): ResumedDelegation | undefined {
    return this.resumed?.get(slot);
  }
}
