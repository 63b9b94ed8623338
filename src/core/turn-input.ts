import type { ObservableInput } from 'rxjs';
import type { Ingress } from './ingress.js';
import type { ChatMessage } from './messages.js';
import type { TurnJournal } from './turn-journal.js';

/** The per-message state of one turn. */
export interface TurnInput {
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
}
