import { ConfigurationError, DuplicateToolError } from '../core/errors.js';
import { NO_ITEMS } from '../core/no-items.js';
import type { Tool } from '../core/tool.js';
import { ActivatedToolSet } from './activated-tool-set.js';
import { ActivationStore, sharedActivations, type ActivationScopes } from './activation-store.js';
import { compileFilterGroups, type CompiledFilterGroups, type FilterGroup } from './filter-group.js';
import { riskProfileFilter, type RiskProfile } from './risk-profile.js';
import type { ToolBundle } from './tool-bundle.js';
import { ToolIndex } from './tool-index.js';
import { ToolRegistry } from './tool-registry.js';
import { TOOL_SEARCH, toolSearchBase } from './tool-search.js';

/** The tool-assembly part of an agent's configuration. */
export interface ToolScopeConfig {
  readonly tools: readonly Tool[];
  readonly bundles?: readonly ToolBundle[];
  readonly riskProfile?: RiskProfile;
  readonly deferredTools?: readonly Tool[];
  readonly filterGroups?: readonly FilterGroup[];
  readonly excludedTools?: readonly string[];
  /**
   * Where activations live: an `ActivationStore` (one set per conversation; default: a new
   * store), or a granted `ActivatedToolSet` that every conversation shares.
   */
  readonly activated?: ActivatedToolSet | ActivationStore;
}

/** An agent's tool assembly, resolved once: the stages every turn starts from. */
export interface AgentToolScope {
  /** Static tools: `tools` then the bundles' tools, by unique name. */
  readonly registry: ToolRegistry;
  readonly bundles: readonly ToolBundle[];
  /** Static tools the risk profile admits, in registration order. */
  readonly admitted: readonly Tool[];
  /** Deferred tools the risk profile admits. */
  readonly deferred: readonly Tool[];
  /** The risk profile (applied again to activated tools, which may come from a granted set). */
  readonly admits: (tool: Tool) => boolean;
  /** Lowercased names of the agent's tools the risk profile removed (calls to them end `excluded`). */
  readonly removed: ReadonlySet<string>;
  /** `excludedTools`, trimmed and lowercased. */
  readonly excluded: ReadonlySet<string>;
  readonly filterGroups: CompiledFilterGroups;
  /** The activated set of each conversation (or turn). */
  readonly activations: ActivationScopes;
  /** `tool_search`'s spec and check, when the agent has deferred tools. */
  readonly toolSearch?: Tool;
  /**
   * The admitted tools' index, when nothing of the agent's can hide or exclude one in a turn (no
   * deferred tools, filter groups or `excludedTools`): what every turn that does not narrow lists.
   */
  readonly index?: ToolIndex;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** Normalizes a tool name for exclusion checks: trimmed, lowercased. */
export const exclusionKey = (name: string): string => name.trim().toLowerCase();

/**
 * Resolves an agent's tool assembly once: registry (tools + bundles) → risk profile; deferred
 * tools → risk profile; filter groups compiled; the activation scopes (a store, or a granted set).
 * Duplicate names across static and deferred tools are a DuplicateToolError.
 *
 * @example
 * ```ts
 * const scope = resolveToolScope({ tools: [calculator], deferredTools: await mcpTools(client, { server: 'gh' }) });
 * scope.deferred.length; // the server's tools, behind tool_search
 * ```
 */
export function resolveToolScope(config: ToolScopeConfig): AgentToolScope {
  const bundles = config.bundles ?? NO_ITEMS;
  const registry = new ToolRegistry();
  const register = (tool: Tool): void => {
    if (registry.get(tool.name) !== tool) registry.add(tool);
  };
  for (const tool of config.tools) register(tool);
  for (const bundle of bundles) for (const tool of bundle.tools) register(tool);
  const admits = riskProfileFilter(config.riskProfile, bundles);
  // an agent is often made per turn: no empty Sets for what most agents lack
  let removed: Set<string> | undefined;
  // without a risk profile every tool is admitted: the registry's copy, not a second array grown by pushes
  let admitted = registry.tools();
  if (config.riskProfile !== undefined) {
    const all = admitted;
    admitted = [];
    for (const tool of all) {
      if (admits(tool)) admitted.push(tool);
      else (removed ??= new Set()).add(exclusionKey(tool.name));
    }
  }
  const deferredTools = config.deferredTools ?? NO_ITEMS;
  const deferred: Tool[] = [];
  const deferredNames = deferredTools.length > 0 ? new Set<string>() : NO_NAMES;
  for (const tool of deferredTools) {
    if (registry.has(tool.name) || deferredNames.has(tool.name)) throw new DuplicateToolError(tool.name);
    (deferredNames as Set<string>).add(tool.name);
    if (admits(tool)) deferred.push(tool);
    else (removed ??= new Set()).add(exclusionKey(tool.name));
  }
  if (deferredTools.length > 0 && (registry.has(TOOL_SEARCH) || deferredNames.has(TOOL_SEARCH))) {
    throw new ConfigurationError(`'${TOOL_SEARCH}' is reserved when deferred tools are configured.`);
  }
  const excluded = config.excludedTools?.length ? new Set(config.excludedTools.map(exclusionKey)) : NO_NAMES;
  const filterGroups = compileFilterGroups(config.filterGroups);
  const plain = deferredTools.length === 0 && excluded.size === 0 && !config.filterGroups?.length;
  return Object.freeze({
    registry,
    bundles,
    admitted,
    deferred: deferred.length > 0 ? deferred : NO_ITEMS,
    admits,
    removed: removed ?? NO_NAMES,
    excluded,
    filterGroups,
    activations: config.activated instanceof ActivatedToolSet ? sharedActivations(config.activated) : (config.activated ?? new ActivationStore()),
    toolSearch: deferredTools.length > 0 ? toolSearchBase() : undefined,
    index: plain ? new ToolIndex(admitted.length === registry.size ? registry.snapshot() : new Map(admitted.map((tool) => [tool.name, tool])), true) : undefined,
  });
}
