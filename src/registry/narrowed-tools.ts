import { TOOL_SEARCH, type Tool, type ToolSpec } from '../core/tool.js';
import { exclusionKey } from './agent-tool-scope.js';
import type { EffectiveTools } from './effective-tools.js';

/**
 * An iteration's tools narrowed to `names` (`prepareIteration`): only those of `tools` are listed
 * and run; a name `tools` does not have is left out, so the set never grows. A call to a tool
 * left out ends `excluded` (its name trimmed and in any letter case, or a `{server}__` suffix that
 * would reach it). Without `tool_search`, no deferred tool is listed or pointed to. `refresh()`
 * gives the tools without the narrowing, for the next iteration.
 *
 * @example
 * ```ts
 * const tools = narrowedTools(turn.tools, ['read_file']);
 * tools.isExcluded('write_file'); // true
 * ```
 */
export function narrowedTools(tools: EffectiveTools, names: readonly string[]): EffectiveTools {
  return new NarrowedTools(tools, names);
}

class NarrowedTools implements EffectiveTools {
  readonly specs: readonly ToolSpec[];
  readonly names: readonly string[];
  readonly offered: readonly string[];
  readonly deferredListing: string | undefined;
  readonly #inner: EffectiveTools;
  readonly #kept: ReadonlySet<string>;
  /** The exclusion keys of the names left out. */
  readonly #dropped: ReadonlySet<string>;

  constructor(inner: EffectiveTools, names: readonly string[]) {
    const wanted = new Set(names);
    this.#inner = inner;
    this.names = this.offered = inner.names.filter((name) => wanted.has(name));
    const kept = (this.#kept = new Set(this.names));
    this.specs = inner.specs.filter((spec) => kept.has(spec.name));
    this.#dropped = new Set(inner.names.filter((name) => !kept.has(name)).map(exclusionKey));
    this.deferredListing = kept.has(TOOL_SEARCH) ? inner.deferredListing : undefined;
  }

  get(name: string): Tool | undefined {
    const tool = this.#inner.get(name);
    return tool !== undefined && this.#kept.has(tool.name) ? tool : undefined;
  }

  isExcluded(name: string): boolean {
    if (this.#inner.isExcluded(name)) return true;
    if (this.#kept.has(name)) return false;
    if (this.#dropped.has(exclusionKey(name))) return true;
    const tool = this.#inner.get(name);
    return tool !== undefined && !this.#kept.has(tool.name);
  }

  pendingDeferred(name: string): string | undefined {
    return this.#kept.has(TOOL_SEARCH) ? this.#inner.pendingDeferred(name) : undefined;
  }

  refresh(): EffectiveTools {
    return this.#inner.refresh();
  }
}
