import type { Tool, ToolSpec } from '../tool/tool.js';
import type { ResolvedAgentExecution } from './resolved-execution.js';

/** The tools a turn may see and run in one iteration. */
export interface EffectiveTools {
  readonly specs: readonly ToolSpec[];
  readonly names: readonly string[];
  /** The runnable tool of that exact name (excluded tools are never returned). */
  get(name: string): Tool | undefined;
  /** Excluded for this agent: trimmed, case-insensitive. */
  isExcluded(name: string): boolean;
}

/** Normalizes a tool name for exclusion checks. */
export const exclusionKey = (name: string): string => name.trim().toLowerCase();

/**
 * Registry minus excluded names (exact names for specs; trimmed, case-insensitive for execution).
 *
 * @example
 * ```ts
 * const tools = effectiveTools(resolved);
 * tools.get('calculator')?.spec;
 * ```
 */
export function effectiveTools(resolved: ResolvedAgentExecution): EffectiveTools {
  const { excluded } = resolved;
  const admitted: Tool[] = [];
  const byName = new Map<string, Tool>();
  for (const tool of resolved.registry.tools()) {
    if (excluded.has(exclusionKey(tool.name))) continue;
    admitted.push(tool);
    byName.set(tool.name, tool);
  }
  const specs = admitted.map((tool) => tool.spec);
  const names = admitted.map((tool) => tool.name);
  return {
    specs,
    names,
    get: (name) => byName.get(name),
    isExcluded: (name) => excluded.has(exclusionKey(name)),
  };
}
