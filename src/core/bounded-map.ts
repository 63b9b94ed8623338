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
  // Up to a second key, the one entry is kept in two fields and no Map is made: a store made per
  // agent mostly serves one conversation (bench/RESULTS.md, "Choices in src/ made for speed").
  #entries: Map<K, V> | undefined = undefined;
  #soleKey: K | undefined = undefined;
  #soleValue: V | undefined = undefined;
  #hasSole = false;
  readonly max: number;

  constructor(max: number = DEFAULT_MAX_SCOPES) {
    this.max = Number.isFinite(max) && max >= 1 ? Math.floor(max) : DEFAULT_MAX_SCOPES;
  }

  get size(): number {
    return this.#entries !== undefined ? this.#entries.size : this.#hasSole ? 1 : 0;
  }

  /** The entry (now the newest), if any. */
  get(key: K): V | undefined {
    const entries = this.#entries;
    if (entries === undefined) return this.#isSole(key) ? this.#soleValue : undefined;
    const value = entries.get(key);
    if (value === undefined) return undefined;
    entries.delete(key);
    entries.set(key, value);
    return value;
  }

  /** The entry without refreshing it. */
  peek(key: K): V | undefined {
    return this.#entries !== undefined ? this.#entries.get(key) : this.#isSole(key) ? this.#soleValue : undefined;
  }

  has(key: K): boolean {
    return this.#entries !== undefined ? this.#entries.has(key) : this.#isSole(key);
  }

  /** Sets the entry (the newest), dropping the least recently used ones beyond `max`. */
  set(key: K, value: V): this {
    let entries = this.#entries;
    if (entries === undefined) {
      if (!this.#hasSole || this.#isSole(key)) {
        this.#soleKey = key;
        this.#soleValue = value;
        this.#hasSole = true;
        return this;
      }
      entries = this.#entries = new Map([[this.#soleKey as K, this.#soleValue as V]]);
      this.#forgetSole();
    }
    entries.delete(key);
    entries.set(key, value);
    while (entries.size > this.max) entries.delete(entries.keys().next().value as K);
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
    if (this.#entries !== undefined) return this.#entries.delete(key);
    if (!this.#isSole(key)) return false;
    this.#forgetSole();
    return true;
  }

  /** Whether `key` is the one entry kept without a Map (SameValueZero, as a Map compares keys). */
  #isSole(key: K): boolean {
    const sole = this.#soleKey;
    return this.#hasSole && (sole === key || (sole !== sole && key !== key));
  }

  #forgetSole(): void {
    this.#soleKey = undefined;
    this.#soleValue = undefined;
    this.#hasSole = false;
  }
}
