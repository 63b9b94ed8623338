import type { Logger } from '../observe/logger.js';

/**
 * What the calls of one dispatched batch share: the handlers of running calls that run a turn of
 * their own (`delegateTool`), told of the turn's cancellation before the batch is cut, so that
 * what that turn emits while it closes (its interrupted slots) still reaches this turn's stream
 * in its place, before the call's own `tool-result`.
 *
 * @example
 * ```ts
 * const run = new BatchRun(resolved.logger);
 * dispatched.pipe(takeUntil(cancel$.pipe(tap(() => run.cancel()))));
 * ```
 */
export class BatchRun {
  #onCancel: Set<() => void> | undefined = undefined;

  constructor(private readonly logger: Logger) {}

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
}
