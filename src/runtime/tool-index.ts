import { TOOL_SEARCH, type Tool, type ToolSpec } from '../core/tool.js';

/**
 * The tools an iteration may see, looked up: by name, by `{name}` for a `{server}__{name}` tool,
 * and as the specs and names a request lists. A turn that narrows, hides, excludes and
 * activates nothing shares its agent's (`ToolIndex.of`), made once for the agent's tools: such a
 * turn then costs the same with 50 tools as with one.
 *
 * @example
 * ```ts
 * const index = ToolIndex.of(scope.admitted);
 * index.byName.get('weather'); // the tool
 * ```
 */
export class ToolIndex {
  /** Indexes of agents' admitted tools, by their array (which an agent never changes). */
  static readonly #shared = new WeakMap<readonly Tool[], ToolIndex>();

  readonly specs: readonly ToolSpec[];
  readonly names: readonly string[];
  readonly bySuffix: ReadonlyMap<string, Tool | null>;

  constructor(readonly byName: ReadonlyMap<string, Tool>) {
    this.specs = Object.freeze(Array.from(byName.values(), specOf));
    this.names = Object.freeze([...byName.keys()]);
    this.bySuffix = suffixIndex(byName);
  }

  /**
   * The shared index of an agent's admitted tools (unique names, in order), frozen: a provider
   * that changed a request's `tools` would change every later turn's.
   *
   * @example
   * ```ts
   * ToolIndex.of(scope.admitted) === ToolIndex.of(scope.admitted); // true
   * ```
   */
  static of(tools: readonly Tool[]): ToolIndex {
    let index = ToolIndex.#shared.get(tools);
    if (index === undefined) {
      index = new ToolIndex(new Map(tools.map((tool) => [tool.name, tool])));
      ToolIndex.#shared.set(tools, index);
    }
    return index;
  }

  /** The tool answering to `name`: its own name, else the one `{server}__{name}` tool. */
  get(name: string): Tool | undefined {
    return this.byName.get(name) ?? this.bySuffix.get(name) ?? undefined;
  }
}

const specOf = (tool: Tool): ToolSpec => tool.spec;

const NO_SUFFIXES: ReadonlyMap<string, Tool | null> = new Map();

/**
 * `{name}` → the one tool named `{server}__{name}`; null when several servers have it.
 *
 * @example
 * ```ts
 * suffixIndex(new Map([['gh__search', tool]])).get('search'); // tool
 * ```
 */
export function suffixIndex(byName: ReadonlyMap<string, Tool>): ReadonlyMap<string, Tool | null> {
  let index: Map<string, Tool | null> | undefined; // most agents have no `{server}__` names: no Map
  for (const tool of byName.values()) {
    const server = tool.attribution.server;
    const at = server !== undefined && tool.name.startsWith(`${server}__`) ? server.length : tool.name.indexOf('__');
    if (at <= 0) continue;
    const suffix = tool.name.slice(at + 2);
    // the built-in tool_search is never answered by another tool's suffix
    if (suffix.length === 0 || suffix === TOOL_SEARCH || byName.has(suffix)) continue;
    index ??= new Map();
    index.set(suffix, index.has(suffix) ? null : tool);
  }
  return index ?? NO_SUFFIXES;
}
