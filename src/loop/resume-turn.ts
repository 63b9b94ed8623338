import { defer, type Observable, type ObservableInput } from 'rxjs';
import type { ZodType } from 'zod';
import type { TurnEvent } from '../core/events.js';
import type { LoopControlOptions } from '../core/loop-control.js';
import type { TurnJournal } from '../core/turn-journal.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import { abortOnUnsubscribe } from '../core/abort-on-unsubscribe.js';
import type { ResolvedAgentExecution } from '../context/resolved-execution.js';
import { createTurnContext } from '../context/turn-context.js';
import { checkOutput } from './check-output.js';
import { checkSnapshot, type ResumeDecision } from './check-snapshot.js';
import { consumeSnapshot } from './consume-snapshot.js';
import { resumeIteration } from './resume-iteration.js';
import { playTurn } from './run-tool-loop.js';
import { withSteering } from './with-steering.js';

/**
 * How a parked turn continues. `stopWhen` and `prepareIteration` come after the agent's, as a
 * turn's own do (a snapshot keeps no function: give them again to keep them).
 */
export interface ResumeOptions extends LoopControlOptions {
  /** A decision for each pending approval, keyed by its `requestId`. */
  readonly decisions: Readonly<Record<string, ResumeDecision>>;
  /** Cancels the resumed turn, like `TurnInput.signal`. */
  readonly signal?: AbortSignal;
  /** User messages that arrive while the resumed turn runs, like `TurnInput.steering`. */
  readonly steering?: ObservableInput<string>;
  /** Who decided, as the decision event and the audit log record it. Default 'resume'. */
  readonly decidedBy?: string;
  /** Records the resumed turn's progress for crash recovery (set by `rx-tool-loop/durable`). */
  readonly journal?: TurnJournal;
  /**
   * The conversation the caller resumes the turn in (`null`: a turn without one). Given, a
   * snapshot of another conversation is refused (`SnapshotMismatchError`), even one sealed
   * under the agent's key: a resume never borrows another conversation's allow-list or
   * activated tools. Not given, the sealed snapshot's own conversation counts.
   */
  readonly conversationId?: string | null;
  /**
   * The output schema the turn was started with (`TurnInput.output`): a snapshot holds only its
   * fingerprint, so a turn that had one needs it again. Missing, or another schema, fails closed
   * with a `SnapshotMismatchError` (as does one given for a turn that had none).
   */
  readonly output?: ZodType;
}

/**
 * Continues a turn that parked at an approval (`done` with reason 'paused'), in this process or
 * another: the snapshot is checked (it fails closed with a `SnapshotMismatchError`, running
 * nothing: `SnapshotTamperedError` for a seal that does not match, `SnapshotReplayedError` for a
 * parked snapshot this process resumed already; a missing or other output schema: `checkOutput`),
 * the parked iteration plays on with the decision, and further iterations follow as in
 * `runToolLoop`. The resumed turn emits the events the same turn would have emitted after the
 * answer, and reaches the same history.
 *
 * ```
 * resumed: y--r-i--t(d|)      y: the decision event; d: done (or 'paused' again)
 * ```
 * @example
 * ```ts
 * resumeTurn(agent.resolved, JSON.parse(stored), { decisions: { [requestId]: 'yes' } }).subscribe(render);
 * ```
 * @param resolved The agent's resolved bundle; the agent must be the one that parked the turn.
 * @param snapshot The parked snapshot (as stored: it is validated).
 * @param options The decisions, a signal, who decided, the turn's output schema.
 * @return The rest of the turn's events, ending with `done`.
 */
export function resumeTurn(resolved: ResolvedAgentExecution, snapshot: TurnSnapshot | unknown, options: ResumeOptions): Observable<TurnEvent> {
  if (resolved.observers.length === 0) return resumed(resolved, snapshot, options);
  // as in runToolLoop: unsubscribing closes the turn as an abort does, for the observers
  return abortOnUnsubscribe(options.signal, (signal) => resumed(resolved, snapshot, { ...options, signal }));
}

function resumed(resolved: ResolvedAgentExecution, snapshot: TurnSnapshot | unknown, options: ResumeOptions): Observable<TurnEvent> {
  return defer(() => {
    let turn: ReturnType<typeof createTurnContext> | undefined;
    const checked = checkSnapshot(resolved, snapshot, options.decisions ?? {}, options.conversationId, (s) => {
      const input = {
        message: s.scope.message,
        tools: s.scope.tools,
        signal: options.signal,
        conversationId: s.conversationId,
        ingress: s.ingress,
        journal: options.journal,
        stopWhen: options.stopWhen,
        prepareIteration: options.prepareIteration,
        output: options.output,
      };
      turn = createTurnContext(resolved, input, undefined, s.activated, (s.seal?.sequence ?? 0) + 1);
      return turn.tools;
    });
    const resumed = turn!;
    checkOutput(checked.snapshot, resumed.output);
    // a parked snapshot resumes once; a journal's checkpoint is claimed by the durable store
    if (checked.parked || checked.delegated) consumeSnapshot(checked.snapshot);
    return withSteering(resumed, options.steering, playTurn(resumed, resumeIteration(resumed, checked, options.decidedBy ?? 'resume')));
  });
}

