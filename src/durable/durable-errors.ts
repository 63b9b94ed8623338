import { ToolLoopError } from '../core/errors.js';

/** A turn store refused or failed an operation (a turn id that exists, a migration from a newer version, …). */
export class DurableStoreError extends ToolLoopError {
  readonly code = 'durable_store_error';
}

/**
 * Another worker claimed the turn (a job retried after this one was thought dead): this worker's
 * writes are refused and its run stops, so a turn never goes on in two places.
 */
export class TurnTakenOverError extends ToolLoopError {
  readonly code = 'turn_taken_over';
  constructor(readonly turnId: string) {
    super(`Turn '${turnId}' was taken over by another worker; this run stops.`);
  }
}
