import type { Tool, ToolRisk } from '../core/tool.js';
import type { ToolBundle } from './tool-bundle.js';
import { toolSelector, type ToolSelector } from './tool-selector.js';

/**
 * Which tools an agent may have at all. `allowed` (when given) admits only matching tools,
 * `excluded` removes matching ones, and `risks` (when given) admits only tools whose declared
 * risk is listed (tools without a declared risk pass). Selectors are names, globs or
 * `bundle:{name}`.
 */
export interface RiskProfile {
  readonly allowed?: readonly ToolSelector[];
  readonly excluded?: readonly ToolSelector[];
  readonly risks?: readonly ToolRisk[];
}

/**
 * Compiles a risk profile into a tool predicate, once per agent.
 *
 * @example
 * ```ts
 * const admits = riskProfileFilter({ allowed: ['bundle:readonly'], excluded: ['shell'], risks: ['read'] }, bundles);
 * tools.filter(admits);
 * ```
 */
export function riskProfileFilter(profile: RiskProfile | undefined, bundles: readonly ToolBundle[] = []): (tool: Tool) => boolean {
  if (!profile) return () => true;
  const allowed = profile.allowed ? toolSelector(profile.allowed, bundles) : undefined;
  const excluded = profile.excluded && profile.excluded.length > 0 ? toolSelector(profile.excluded, bundles) : undefined;
  const risks = profile.risks ? new Set<ToolRisk>(profile.risks) : undefined;
  return (tool) =>
    (allowed === undefined || allowed(tool)) &&
    (excluded === undefined || !excluded(tool)) &&
    (risks === undefined || tool.risk === undefined || risks.has(tool.risk));
}
