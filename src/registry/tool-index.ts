import { TOOL_SEARCH, type Tool, type ToolSpec } from '../core/tool.js';

/**
 * The tools an iteration may see, looked up: by name, by `{name}` for a `{server}__{name}` tool,
 * and as the specs and names a request lists. An agent whose turns can only narrow (no deferred
 * tools, filter groups or `excludedTools`) makes one for its admitted tools
 * (`AgentToolScope.index`), and each turn that does not narrow uses it: such a turn costs the
 * same with 50 tools as with one. That index is `shared`: its specs and names are frozen, since
 * a provider that changed a request's `tools` would change every later turn's (and a frozen list
 * tells the text protocol it may keep its section).
 *
 * @example
 * ```ts
 * const index = new ToolIndex(new Map([[weather.name, weather]]), false);
 * index.get('weather'); // the tool
 * ```
 */
export class ToolIndex {
  readonly specs: readonly ToolSpec[];
  readonly names: readonly string[];
  readonly bySuffix: ReadonlyMap<string, Tool | null>;

  constructor(
    readonly byName: ReadonlyMap<string, Tool>,
    shared: boolean,
  ) {
    // mapped, not pushed: a push onto [] reserves 17 slots, and an agent is often made per turn
    const tools = [...byName.values()];
    const specs = tools.map(specOf);
    const names = tools.map(nameOf);
    this.specs = shared ? Object.freeze(specs) : specs;
    this.names = shared ? Object.freeze(names) : names;
    this.bySuffix = suffixIndex(byName);
  }

  /** The tool answering to `name`: its own name, else the one `{server}__{name}` tool. */
  get(name: string): Tool | undefined {
    return this.byName.get(name) ?? this.bySuffix.get(name) ?? undefined;
  }
}

const specOf = (tool: Tool): ToolSpec => tool.spec;
const nameOf = (tool: Tool): string => tool.name;

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
