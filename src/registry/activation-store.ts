import { BoundedMap, DEFAULT_MAX_SCOPES } from '../core/bounded-map.js';
import type { ConversationScope } from '../core/conversation-scope.js';
import { ActivatedToolSet } from './activated-tool-set.js';

/** Where a turn's activated deferred tools live: one set per scope. */
export interface ActivationScopes {
  /** The set a turn in this scope activates into and runs from. */
  forScope(scope: ConversationScope): ActivatedToolSet;
}

/** Options of an `ActivationStore`. */
export interface ActivationStoreOptions {
  /** How many conversations keep their activated tools, least recently used dropped first. Default 1000. */
  readonly maxConversations?: number;
}

/**
 * The activated deferred tools of each conversation: a tool `tool_search` activates in
 * conversation A is offered and runnable in A's later turns, never in B's. A turn without a
 * `conversationId` gets a set of its own (a parked one gets its activations back from its
 * snapshot on resume). At most `maxConversations` sets are kept, the least recently used
 * dropped first (its tools go back behind `tool_search`). Every agent has one by default; share
 * one store between a parent and its sub-agent (`createAgent({ activated: store })`) and pass
 * the parent's `conversationId` to the child's turn to grant the conversation's activations.
 *
 * @example
 * ```ts
 * const activations = new ActivationStore({ maxConversations: 200 });
 * const agent = createAgent({ provider, model, tools, deferredTools, activated: activations });
 * await agent.complete({ message: 'find the github tools', conversationId: 'c1' });
 * activations.forConversation('c1')?.names(); // ['github__search', …]
 * ```
 */
export class ActivationStore implements ActivationScopes {
  readonly #sets: BoundedMap<string, ActivatedToolSet>;

  constructor(options: ActivationStoreOptions = {}) {
    this.#sets = new BoundedMap(options.maxConversations ?? DEFAULT_MAX_SCOPES);
  }

  forScope(scope: ConversationScope): ActivatedToolSet {
    if (scope.conversationId === undefined) return new ActivatedToolSet();
    return this.#sets.getOrCreate(scope.conversationId, () => new ActivatedToolSet());
  }

  /** A conversation's activated set, if it has one (not made, not refreshed). */
  forConversation(conversationId: string): ActivatedToolSet | undefined {
    return this.#sets.peek(conversationId);
  }

  /** Drops a conversation's activations; true when it had a set. */
  forget(conversationId: string): boolean {
    return this.#sets.delete(conversationId);
  }

  /** How many conversations keep a set now. */
  get size(): number {
    return this.#sets.size;
  }
}

/**
 * The scopes of a granted set: every turn of every conversation shares `set` (what an agent
 * given an `ActivatedToolSet` does). Prefer an `ActivationStore` when users must not share.
 *
 * @example
 * ```ts
 * const scopes = sharedActivations(new ActivatedToolSet([echo]));
 * scopes.forScope({ conversationId: 'a' }) === scopes.forScope({ turnId: 't' }); // true
 * ```
 */
export function sharedActivations(set: ActivatedToolSet): ActivationScopes {
  return Object.freeze({ forScope: () => set });
}
