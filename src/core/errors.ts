/**
 * One error hierarchy for the whole library. Every error has a stable `code`
 * (usable as OpenTelemetry `error.type`) and structured fields.
 *
 * @example
 * ```ts
 * agent.complete(input).catch((e) => {
 *   if (e instanceof MaxIterationsError) console.log(e.iterations, e.history.length);
 * });
 * ```
 */
export abstract class ToolLoopError extends Error {
  abstract readonly code: string;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The model provider failed (HTTP status when there is one). Nothing of the failed iteration is in history. */
export class ProviderError extends ToolLoopError {
  readonly code = 'provider_error';
  readonly status?: number;
  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status;
  }
}

/** The turn reached `maxToolIterations` with `maxIterationBehavior: 'error'`. Carries the history so far. */
export class MaxIterationsError extends ToolLoopError {
  readonly code = 'max_iterations';
  constructor(
    readonly iterations: number,
    readonly history: readonly import('./messages.js').ChatMessage[],
  ) {
    super(`The turn stopped after reaching the tool iteration limit (${iterations}) without a final answer.`);
  }
}

/** The turn was aborted by a loop guard (repeated unapproved prompt, or the loop detector). */
export class LoopAbortedError extends ToolLoopError {
  readonly code = 'loop_aborted';
  constructor(
    readonly toolName: string,
    message: string,
    readonly history: readonly import('./messages.js').ChatMessage[] = [],
  ) {
    super(message);
  }
}

/**
 * A loop-control function (`stopWhen`, `prepareIteration`) threw, rejected, or returned what it
 * may not. The turn ends with this error; `option` names the function and `history` is the turn's
 * so far.
 */
export class LoopControlError extends ToolLoopError {
  readonly code = 'loop_control';
  constructor(
    readonly option: 'stopWhen' | 'prepareIteration',
    message: string,
    readonly history: readonly import('./messages.js').ChatMessage[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The model's final answer did not match the turn's output schema (`TurnInput.output`), after it
 * was sent back with the problems `maxStructuredOutputRetries` times. Carries the last reply's
 * text as the model wrote it (not scrubbed, like history), the problems with it, and the turn's
 * history up to that reply. The message is scrubbed.
 */
export class StructuredOutputError extends ToolLoopError {
  readonly code = 'structured_output';
  constructor(
    message: string,
    /** The last reply, as the model wrote it. */
    readonly text: string,
    readonly issues: readonly import('./structured-output.js').OutputIssue[],
    /** The times the answer was sent back for a correction. */
    readonly retries: number,
    readonly history: readonly import('./messages.js').ChatMessage[],
  ) {
    super(message);
  }
}

/** Two tools with the same name were registered. */
export class DuplicateToolError extends ToolLoopError {
  readonly code = 'duplicate_tool';
  constructor(readonly toolName: string) {
    super(`A tool named '${toolName}' is already registered; tool names must be unique.`);
  }
}

/** A tool did not finish within its timeout. Becomes a failed result; never escapes the turn. */
export class ToolTimeoutError extends ToolLoopError {
  readonly code = 'tool_timeout';
  constructor(
    readonly toolName: string,
    readonly timeoutMs: number,
  ) {
    super(`timed out after ${timeoutMs} ms`);
  }
}

/** A turn's input is not what `TurnInput` says (a message that is not text, a malformed history, …). Nothing runs. */
export class TurnInputError extends ToolLoopError {
  readonly code = 'turn_input_error';
}

/** The configuration given to `createAgent` or `defineTool` is invalid. */
export class ConfigurationError extends ToolLoopError {
  readonly code = 'configuration_error';
}

/**
 * A turn snapshot that cannot be resumed by this agent: an unknown version, a malformed
 * snapshot, another agent's, a pending call whose tool the agent no longer has or whose schema
 * changed, or decisions that do not match the pending requests. Nothing runs.
 */
export class SnapshotMismatchError extends ToolLoopError {
  readonly code: string = 'snapshot_mismatch';
}

/**
 * A turn snapshot whose seal does not match: it was changed after this library sealed it (or
 * sealed with another `snapshotKey`, or never sealed). Checked before anything else; nothing runs.
 */
export class SnapshotTamperedError extends SnapshotMismatchError {
  override readonly code: string = 'snapshot_tampered';
}

/** A turn snapshot that was resumed already (each sealed snapshot resumes once). Nothing runs. */
export class SnapshotReplayedError extends SnapshotMismatchError {
  override readonly code: string = 'snapshot_replayed';
  readonly turnId: string;
  readonly sequence: number;
  constructor(turnId: string, sequence: number) {
    super(`The snapshot of turn '${turnId}' (sequence ${sequence}) was resumed already: a snapshot resumes once.`);
    this.turnId = turnId;
    this.sequence = sequence;
  }
}
