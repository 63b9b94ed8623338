import { BoundedMap, DEFAULT_MAX_SCOPES } from '../core/bounded-map.js';
import { scopeKey, type ConversationScope } from '../core/conversation-scope.js';

const EMPTY: ReadonlySet<string> = Object.freeze(new Set<string>());

/**
 * The tools operators allowed with `always`, one list per conversation (per turn for a turn
 * without a conversation id), plus the unscoped list of requests made outside any turn. At most
 * `maxScopes` scoped lists are kept, the least recently used dropped first (its tools prompt
 * again).
 *
 * @example
 * ```ts
 * const lists = new ScopedAllowLists(500);
 * lists.allow('deploy', { conversationId: 'c1' });
 * lists.of({ conversationId: 'c1' }).has('deploy'); // true
 * lists.of({ conversationId: 'c2' }).has('deploy'); // false
 * ```
 */
export class ScopedAllowLists {
  readonly #unscoped = new Set<string>();
  readonly #scoped: BoundedMap<string, Set<string>>;
  /** The last scope asked about, and its key: a batch asks once per call, and a key made again is hashed again. */
  #lastConversationId: string | undefined = undefined;
  #lastTurnId: string | undefined = undefined;
  #lastKey: string | undefined = undefined;

  constructor(maxScopes: number = DEFAULT_MAX_SCOPES) {
    this.#scoped = new BoundedMap(maxScopes);
  }

  /** Adds a tool to the scope's list. */
  allow(toolName: string, scope?: ConversationScope): void {
    const key = this.#keyOf(scope);
    if (key === undefined) this.#unscoped.add(toolName);
    else this.#scoped.getOrCreate(key, () => new Set()).add(toolName);
  }

  /** The scope's list (empty when nothing was allowed there, or it was dropped). */
  of(scope?: ConversationScope): ReadonlySet<string> {
    const key = this.#keyOf(scope);
    if (key === undefined) return this.#unscoped;
    return this.#scoped.get(key) ?? EMPTY;
  }

  /** Drops the scope's list (a conversation that ended). */
  forget(scope: ConversationScope): boolean {
    const key = this.#keyOf(scope);
    return key === undefined ? false : this.#scoped.delete(key);
  }

  /** How many scoped lists are kept now. */
  get size(): number {
    return this.#scoped.size;
  }

  /** `scopeKey(scope)`, the same string as last time for a scope with the same ids. */
  #keyOf(scope: ConversationScope | undefined): string | undefined {
    if (scope?.conversationId !== this.#lastConversationId || scope?.turnId !== this.#lastTurnId) {
      this.#lastConversationId = scope?.conversationId;
      this.#lastTurnId = scope?.turnId;
      this.#lastKey = scopeKey(scope);
    }
    return this.#lastKey;
  }
}
