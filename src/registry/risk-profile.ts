import { ConfigurationError } from '../core/errors.js';
import type { Tool, ToolRisk } from '../core/tool.js';
import { knownRisk, riskOf, TOOL_RISKS } from '../core/tool-risk.js';
import type { ToolBundle } from './tool-bundle.js';
import { toolSelector, type ToolSelector } from './tool-selector.js';

/**
 * Which tools an agent may have at all. `allowed` (when given) admits only matching tools,
 * `excluded` removes matching ones, and `risks` (when given) admits only tools whose risk is
 * listed; a tool that declares no risk counts as `'write'` (the filter fails closed). Selectors
 * are names, globs or `bundle:{name}`.
 */
export interface RiskProfile {
  readonly allowed?: readonly ToolSelector[];
  readonly excluded?: readonly ToolSelector[];
  readonly risks?: readonly ToolRisk[];
}

/** No risk profile: every tool admitted (one function for every agent without a profile). */
const admitAll = (): boolean => true;

/**
 * Compiles a risk profile into a tool predicate, once per agent. Throws a `ConfigurationError`
 * for a `risks` entry that is not a risk level.
 *
 * @example
 * ```ts
 * const admits = riskProfileFilter({ allowed: ['bundle:readonly'], excluded: ['shell'], risks: ['read'] }, bundles);
 * tools.filter(admits); // a tool without a declared risk is not admitted: it counts as 'write'
 * ```
 */
export function riskProfileFilter(profile: RiskProfile | undefined, bundles: readonly ToolBundle[] = []): (tool: Tool) => boolean {
  if (!profile) return admitAll;
  const allowed = profile.allowed ? toolSelector(profile.allowed, bundles) : undefined;
  const excluded = profile.excluded && profile.excluded.length > 0 ? toolSelector(profile.excluded, bundles) : undefined;
  const risks = profile.risks !== undefined ? riskSet(profile.risks) : undefined;
  return (tool) =>
    (allowed === undefined || allowed(tool)) && (excluded === undefined || !excluded(tool)) && (risks === undefined || risks.has(riskOf(tool)));
}

function riskSet(list: readonly ToolRisk[]): ReadonlySet<ToolRisk> {
  if (!Array.isArray(list)) throw new ConfigurationError(`Risk profile 'risks' must be a list of risk levels (${TOOL_RISKS.join(', ')}).`);
  const out = new Set<ToolRisk>();
  for (const entry of list) {
    const risk = knownRisk(entry);
    if (risk === undefined) {
      throw new ConfigurationError(`Risk profile 'risks' has an unknown level '${String(entry)}': use ${TOOL_RISKS.join(', ')}.`);
    }
    out.add(risk);
  }
  return out;
}
