import { ConfigurationError } from '../core/errors.js';
import type { Tool } from '../core/tool.js';
import { globMatcher } from './glob-matcher.js';
import type { ToolBundle } from './tool-bundle.js';

/** Picks tools: an exact name, a glob (`github__*`), or `bundle:{name}` for a bundle's tools. */
export type ToolSelector = string;

/**
 * Compiles selectors into one tool predicate, once. A bundle selector matches the tools of that
 * bundle by identity; naming a bundle the agent does not have is a ConfigurationError.
 *
 * @example
 * ```ts
 * const selects = toolSelector(['calculator', 'github__*', 'bundle:files'], bundles);
 * selects(fileRead); // true
 * ```
 */
export function toolSelector(selectors: readonly ToolSelector[], bundles: readonly ToolBundle[] = []): (tool: Tool) => boolean {
  const names: string[] = [];
  const fromBundles = new Set<Tool>();
  for (const selector of selectors) {
    if (!selector.startsWith('bundle:')) {
      names.push(selector.trim());
      continue;
    }
    const bundleName = selector.slice('bundle:'.length);
    const bundle = bundles.find((b) => b.name === bundleName);
    if (!bundle) throw new ConfigurationError(`Unknown tool bundle '${bundleName}' in selector '${selector}'.`);
    for (const tool of bundle.tools) fromBundles.add(tool);
  }
  const byName = globMatcher(names);
  return (tool) => fromBundles.has(tool) || byName(tool.name);
}
