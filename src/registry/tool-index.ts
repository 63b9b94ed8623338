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

  /**
   * @param shadows Tools the turn knows but cannot run yet (deferred ones not activated): never
   * answered by their suffix, but a suffix they share is ambiguous, and their names are taken.
   */
  constructor(
    readonly byName: ReadonlyMap<string, Tool>,
    shared: boolean,
    shadows: readonly Tool[] = [],
  ) {
    // mapped, not pushed: a push onto [] reserves 17 slots, and an agent is often made per turn
    const tools = [...byName.values()];
    const specs = tools.map(specOf);
    const names = tools.map(nameOf);
    this.specs = shared ? Object.freeze(specs) : specs;
    this.names = shared ? Object.freeze(names) : names;
    this.bySuffix = suffixIndex(byName, shadows);
  }

  /** The tool answering to `name`: its own name, else the one `{server}__{name}` tool. */
  get(name: string): Tool | undefined {
    const own = this.byName.get(name);
    if (own !== undefined) return own;
    const bySuffix = this.bySuffix.get(name);
    return bySuffix != null && this.byName.get(bySuffix.name) === bySuffix ? bySuffix : undefined;
  }
}

const specOf = (tool: Tool): ToolSpec => tool.spec;
const nameOf = (tool: Tool): string => tool.name;

const NO_SUFFIXES: ReadonlyMap<string, Tool | null> = new Map();

/**
 * `{name}` → the one tool named `{server}__{name}`; null when several have it (`shadows`, the
 * deferred tools not active yet, counted). A suffix never stands for another tool: not for one
 * whose name it is in any letter case (a call `Write_File` never reaches `evil__Write_File` past
 * the agent's `write_file`), not for the built-in `tool_search`, and never when it holds a `__`
 * itself (a call `fx__echo` is for server fx's echo, never for `evil__fx__echo`).
 *
 * @example
 * ```ts
 * suffixIndex(new Map([['gh__search', tool]])).get('search'); // tool
 * ```
 */
export function suffixIndex(byName: ReadonlyMap<string, Tool>, shadows: readonly Tool[] = []): ReadonlyMap<string, Tool | null> {
  let index: Map<string, Tool | null> | undefined; // most agents have no `{server}__` names: no Map
  const add = (tool: Tool): void => {
    const server = tool.attribution.server;
    const at = server !== undefined && tool.name.startsWith(`${server}__`) ? server.length : tool.name.indexOf('__');
    if (at <= 0) return;
    const suffix = tool.name.slice(at + 2);
    if (suffix.length === 0 || suffix.includes('__')) return;
    index ??= new Map();
    index.set(suffix, index.has(suffix) ? null : tool);
  };
  for (const tool of byName.values()) add(tool);
  for (const tool of shadows) add(tool);
  if (index === undefined) return NO_SUFFIXES;
  // a name the turn knows, in any letter case, is that tool's (or nobody's), never a suffix's
  const taken = new Set<string>([TOOL_SEARCH]);
  for (const name of byName.keys()) taken.add(name.toLowerCase());
  for (const tool of shadows) taken.add(tool.name.toLowerCase());
  for (const suffix of [...index.keys()]) if (taken.has(suffix.toLowerCase())) index.delete(suffix);
  return index;
}
