import { exclusionKey } from '../registry/agent-tool-scope.js';
import { deferredToolsListing, bindToolSearch } from '../registry/tool-search.js';
import { toolSelector } from '../registry/tool-selector.js';
import { TOOL_SEARCH, type Tool } from '../core/tool.js';
import type { ActivatedToolSet } from '../registry/activated-tool-set.js';
import type { EffectiveTools, ResolvedAgentExecution } from './resolved-execution.js';

export { exclusionKey };

/** What a run contributes to its tools: the user's message (filter groups) and its narrowing. */
export interface ToolRunScope {
  readonly message?: string;
  /** Narrows the run to these selectors (names, globs, `bundle:{name}`); it can only narrow. */
  readonly tools?: readonly string[];
}

/**
 * The turn's tools: registry → risk profile (allowed / excluded) → per-run narrowing (only
 * narrows) → filter groups (MCP tools only; they decide for static, deferred and activated
 * tools alike) → the turn's activated deferred tools (`activated`: its conversation's, else its
 * own; plus `tool_search` while some deferred tool the turn admits is not active yet) → minus
 * `excludedTools` (exact names for specs; trimmed, case-insensitive for calls). A deferred or
 * activated tool that the turn's filter groups hide is not listed, not activatable and its calls
 * end `excluded`. Per-turn work happens here once; `refresh()` rebuilds only when activation
 * changed.
 *
 * @example
 * ```ts
 * const activated = resolved.activations.forScope({ conversationId: 'c1' });
 * let tools = effectiveTools(resolved, { message: 'review my pull request', tools: ['github__*'] }, activated);
 * tools = tools.refresh(); // at the start of each iteration
 * ```
 */
export function effectiveTools(resolved: ResolvedAgentExecution, run: ToolRunScope, activated: ActivatedToolSet): EffectiveTools {
  const scope = resolved.toolScope;
  const { excluded } = resolved;
  const isOut = (tool: Tool): boolean => excluded.has(exclusionKey(tool.name));
  const narrow = run.tools ? toolSelector(run.tools, scope.bundles) : undefined;
  const exposes = scope.filterGroups.forMessage(run.message ?? '');
  const hidden = new Set<string>();
  const base: Tool[] = [];
  for (const tool of scope.admitted) {
    if (isOut(tool)) continue;
    if ((narrow && !narrow(tool)) || !exposes(tool)) hidden.add(exclusionKey(tool.name));
    else base.push(tool);
  }
  const candidates: Tool[] = [];
  for (const tool of scope.deferred) {
    if (isOut(tool)) continue;
    if ((narrow && !narrow(tool)) || !exposes(tool)) {
      hidden.add(exclusionKey(tool.name));
      continue;
    }
    candidates.push(tool);
    if (scope.filterGroups.always(tool)) activated.activate(tool);
  }
  const toolSearch =
    scope.toolSearch && candidates.length > 0 && !isOut(scope.toolSearch)
      ? bindToolSearch(scope.toolSearch, { candidates, activated })
      : undefined;
  const admitsActivated = (tool: Tool): boolean => !isOut(tool) && scope.admits(tool) && (!narrow || narrow(tool)) && exposes(tool);

  const build = (): EffectiveTools => {
    const version = activated.version;
    const byName = new Map<string, Tool>();
    for (const tool of base) byName.set(tool.name, tool);
    const pending = candidates.filter((tool) => activated.get(tool.name) !== tool);
    if (toolSearch && pending.length > 0 && !byName.has(toolSearch.name)) byName.set(toolSearch.name, toolSearch);
    let hiddenNow: Set<string> | undefined; // beside `hidden`, made only when an activated tool is hidden
    for (const tool of activated.tools()) {
      if (byName.has(tool.name)) continue;
      if (admitsActivated(tool)) byName.set(tool.name, tool);
      else if (!exposes(tool)) (hiddenNow ??= new Set()).add(exclusionKey(tool.name)); // e.g. granted, and this turn's groups hide it
    }
    const isHidden = (key: string): boolean => hidden.has(key) || hiddenNow?.has(key) === true || scope.removed.has(key);
    const bySuffix = suffixIndex(byName);
    const listed: ReadonlyMap<string, Tool> = toolSearch ? new Map(pending.map((tool) => [tool.name, tool])) : NO_TOOLS;
    const pendingBySuffix = listed.size > 0 ? suffixIndex(listed) : NO_SUFFIXES;
    const tools = [...byName.values()];
    const self: EffectiveTools = {
      specs: tools.map((tool) => tool.spec),
      names: [...byName.keys()],
      get: (name) => byName.get(name) ?? bySuffix.get(name) ?? undefined,
      isExcluded: (name) => {
        const key = exclusionKey(name);
        return excluded.has(key) || (isHidden(key) && !byName.has(name));
      },
      deferredListing: toolSearch && pending.length > 0 ? deferredToolsListing(pending) : undefined,
      pendingDeferred: (name) => (listed.get(name) ?? pendingBySuffix.get(name) ?? undefined)?.name,
      refresh: () => (activated.version === version ? self : build()),
    };
    return self;
  };
  return build();
}

const NO_TOOLS: ReadonlyMap<string, Tool> = new Map();
const NO_SUFFIXES: ReadonlyMap<string, Tool | null> = new Map();

/** `{name}` → the one tool named `{server}__{name}`; null when several servers have it. */
function suffixIndex(byName: ReadonlyMap<string, Tool>): ReadonlyMap<string, Tool | null> {
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
