/** How many conversations (or turns) a per-conversation store keeps by default. */
export const DEFAULT_MAX_SCOPES = 1000;

/**
 * A Map that keeps at most `max` entries, least recently used dropped first: reading or writing
 * an entry makes it the newest. Per-conversation state (allow-lists, activated tools) lives in
 * one, so a long-running process does not keep every conversation it ever served.
 *
 * @example
 * ```ts
 * const lists = new BoundedMap<string, Set<string>>(2);
 * lists.set('a', new Set()); lists.set('b', new Set()); lists.get('a'); lists.set('c', new Set());
 * lists.has('b'); // false: the least recently used went first
 * ```
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly max: number;

  constructor(max: number = DEFAULT_MAX_SCOPES) {
    this.max = Number.isFinite(max) && max >= 1 ? Math.floor(max) : DEFAULT_MAX_SCOPES;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The entry (now the newest), if any. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** The entry without refreshing it. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Sets the entry (the newest), dropping the least recently used ones beyond `max`. */
  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value as K);
    return this;
  }

  /** The entry, made by `create` (and stored) when there is none. */
  getOrCreate(key: K, create: () => V): V {
    const found = this.get(key);
    if (found !== undefined) return found;
    const value = create();
    this.set(key, value);
    return value;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }
}
