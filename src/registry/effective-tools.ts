import { NO_ITEMS } from '../core/no-items.js';
import type { Tool, ToolSpec } from '../core/tool.js';
import type { ActivatedToolSet } from './activated-tool-set.js';
import { exclusionKey, type AgentToolScope } from './agent-tool-scope.js';
import { ToolIndex } from './tool-index.js';
import { deferredToolsListing, bindToolSearch } from './tool-search.js';
import { toolSelector } from './tool-selector.js';

/** What of the agent decides a turn's tools (a `ResolvedAgentExecution` has both). */
export interface AgentTools {
  /** The tool assembly (bundles, risk profile, deferred tools, filter groups), resolved once. */
  readonly toolScope: AgentToolScope;
  /** Excluded tool names, trimmed and lowercased. */
  readonly excluded: ReadonlySet<string>;
}

/** The tools a turn may see and run in one iteration. */
export interface EffectiveTools {
  readonly specs: readonly ToolSpec[];
  readonly names: readonly string[];
  /**
   * The runnable tool for a name: the exact name, else the one tool whose name is
   * `{server}__{name}` (ambiguous → undefined). Excluded tools are never returned.
   */
  get(name: string): Tool | undefined;
  /** Excluded for this agent or run (trimmed, case-insensitive); such calls end `excluded`. */
  isExcluded(name: string): boolean;
  /** The system message listing deferred tools not activated yet (`name - description`), if any. */
  readonly deferredListing?: string;
  /**
   * The full name of the deferred tool, listed and not activated yet, that `name` calls (exact,
   * else a unique `{server}__{name}` suffix), so an `unknown` call can say that `tool_search`
   * activates it; undefined otherwise.
   */
  pendingDeferred(name: string): string | undefined;
  /** These tools, or a rebuilt set when the ActivatedToolSet changed since they were computed. */
  refresh(): EffectiveTools;
  /** The names `prepareIteration` narrowed these tools to (`narrowedTools`); absent when nothing narrowed them. */
  readonly offered?: readonly string[];
}

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
export function effectiveTools(resolved: AgentTools, run: ToolRunScope, activated: ActivatedToolSet): EffectiveTools {
  return new TurnTools(resolved, run, activated).build();
}

// Classes, not closures: an agent is often made per turn (bench/RESULTS.md, "Choices in src/ made for speed").

/** What stays for the whole turn: the admitted tools, the deferred candidates, what is hidden. */
class TurnTools {
  readonly scope: AgentToolScope;
  readonly excluded: ReadonlySet<string>;
  readonly narrow: ((tool: Tool) => boolean) | undefined;
  readonly exposes: (tool: Tool) => boolean;
  /** Hidden by the run's narrowing or filter groups (exclusion keys); made when one is. */
  hidden: Set<string> | undefined = undefined;
  /** Nothing narrows, hides or excludes a tool, and none is deferred: `base` is the admitted tools, listed by the agent's index. */
  readonly plain: boolean;
  readonly base: readonly Tool[];
  readonly candidates: readonly Tool[];
  readonly toolSearch: Tool | undefined;

  constructor(
    resolved: AgentTools,
    run: ToolRunScope,
    readonly activated: ActivatedToolSet,
  ) {
    const scope = (this.scope = resolved.toolScope);
    this.excluded = resolved.excluded;
    this.narrow = run.tools ? toolSelector(run.tools, scope.bundles) : undefined;
    this.exposes = scope.filterGroups.forMessage(run.message ?? '');
    this.plain = this.narrow === undefined && scope.index !== undefined;
    if (this.plain) {
      this.base = scope.admitted;
      this.candidates = NO_ITEMS;
      this.toolSearch = undefined;
      return;
    }
    const base: Tool[] = (this.base = []);
    const candidates: Tool[] = (this.candidates = []);
    for (const tool of scope.admitted) {
      if (this.isOut(tool)) continue;
      if (this.shown(tool)) base.push(tool);
      else this.hide(tool);
    }
    for (const tool of scope.deferred) {
      if (this.isOut(tool)) continue;
      if (!this.shown(tool)) {
        this.hide(tool);
        continue;
      }
      candidates.push(tool);
      if (scope.filterGroups.always(tool)) activated.activate(tool);
    }
    this.toolSearch =
      scope.toolSearch && this.candidates.length > 0 && !this.isOut(scope.toolSearch)
        ? bindToolSearch(scope.toolSearch, { candidates: this.candidates, activated })
        : undefined;
  }

  isOut(tool: Tool): boolean {
    return this.excluded.has(exclusionKey(tool.name));
  }

  /** Neither narrowed away by the run nor hidden by its filter groups. */
  shown(tool: Tool): boolean {
    return (!this.narrow || this.narrow(tool)) && this.exposes(tool);
  }

  hide(tool: Tool): void {
    (this.hidden ??= new Set()).add(exclusionKey(tool.name));
  }

  admitsActivated(tool: Tool): boolean {
    return !this.isOut(tool) && this.scope.admits(tool) && this.shown(tool);
  }

  build(): EffectiveTools {
    return new IterationTools(this);
  }
}

/** The tools of the iterations until the activated set changes. */
class IterationTools implements EffectiveTools {
  readonly specs: readonly ToolSpec[];
  readonly names: readonly string[];
  readonly deferredListing: string | undefined;
  readonly #turn: TurnTools;
  readonly #version: number;
  readonly #index: ToolIndex;
  readonly #listed: ReadonlyMap<string, Tool>;
  /** Beside the turn's hidden names: activated tools this turn's filter groups hide (e.g. granted). */
  #hiddenNow: Set<string> | undefined = undefined;
  /** Whether any name is excluded or hidden: when none is, `isExcluded` makes no key per call. */
  readonly #screens: boolean;

  constructor(turn: TurnTools) {
    this.#turn = turn;
    const { activated, toolSearch } = turn;
    this.#version = activated.version;
    if (turn.plain && activated.size === 0) {
      // the agent's own index: nothing to add or take away
      this.#index = turn.scope.index!;
      this.#listed = NO_TOOLS;
      this.deferredListing = undefined;
    } else {
      const byName = new Map<string, Tool>();
      for (const tool of turn.base) byName.set(tool.name, tool);
      const pending = turn.candidates.filter((tool) => activated.get(tool.name) !== tool);
      if (toolSearch && pending.length > 0 && !byName.has(toolSearch.name)) byName.set(toolSearch.name, toolSearch);
      for (const tool of activated.tools()) {
        if (byName.has(tool.name)) continue;
        if (turn.admitsActivated(tool)) byName.set(tool.name, tool);
        else if (!turn.exposes(tool)) (this.#hiddenNow ??= new Set()).add(exclusionKey(tool.name));
      }
      // this turn's own: not frozen, nor kept by the text protocol; a pending deferred tool's
      // name and suffix are never answered by another tool
      this.#index = new ToolIndex(byName, false, pending);
      this.#listed = toolSearch ? new Map(pending.map((tool) => [tool.name, tool])) : NO_TOOLS;
      this.deferredListing = toolSearch && pending.length > 0 ? deferredToolsListing(pending) : undefined;
    }
    this.#screens = turn.excluded.size > 0 || turn.hidden !== undefined || this.#hiddenNow !== undefined || turn.scope.removed.size > 0;
    this.specs = this.#index.specs;
    this.names = this.#index.names;
  }

  get(name: string): Tool | undefined {
    return this.#index.get(name);
  }

  isExcluded(name: string): boolean {
    if (!this.#screens) return false;
    const key = exclusionKey(name);
    return this.#turn.excluded.has(key) || (this.#isHidden(key) && !this.#index.byName.has(name));
  }

  pendingDeferred(name: string): string | undefined {
    const tool = this.#listed.get(name) ?? this.#index.bySuffix.get(name);
    return tool != null && this.#listed.get(tool.name) === tool ? tool.name : undefined;
  }

  refresh(): EffectiveTools {
    return this.#turn.activated.version === this.#version ? this : this.#turn.build();
  }

  #isHidden(key: string): boolean {
    return this.#turn.hidden?.has(key) === true || this.#hiddenNow?.has(key) === true || this.#turn.scope.removed.has(key);
  }
}

const NO_TOOLS: ReadonlyMap<string, Tool> = new Map();
