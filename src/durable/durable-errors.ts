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

/**
 * `continue(id, { exclusive: true })` did not start the turn: another turn of its conversation is
 * running, or one queued before it waits. Nothing changed; ask again later (the queue re-sends its job).
 */
export class ConversationBusyError extends ToolLoopError {
  readonly code = 'conversation_busy';
  constructor(
    readonly turnId: string,
    readonly conversationId: string,
  ) {
    super(`Turn '${turnId}' waits: conversation '${conversationId}' has a turn running or queued before it.`);
  }
}
