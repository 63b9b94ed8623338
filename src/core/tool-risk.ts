import type { ToolRisk } from './tool.js';

/** The risk levels, lowest first. */
export const TOOL_RISKS: readonly ToolRisk[] = Object.freeze(['read', 'egress', 'write', 'exec']);

/** The risk a tool without a (known) declared risk counts as: approval and risk profiles fail closed. */
export const UNDECLARED_RISK: ToolRisk = 'write';

/** Older spellings of a level: `'network'` was the name of `'egress'`. */
const LEGACY: Readonly<Record<string, ToolRisk>> = Object.freeze({ network: 'egress' });

/**
 * The level a declared risk stands for: a known level as is, the legacy `'network'` as `'egress'`,
 * and anything else (none, a misspelling) as `'write'`, so that a tool never passes a check by
 * not saying what it does.
 *
 * @example
 * ```ts
 * riskOf({ risk: 'read' }); // 'read'
 * riskOf({});               // 'write'
 * ```
 */
export function riskOf(tool: { readonly risk?: unknown }): ToolRisk {
  return knownRisk(tool.risk) ?? UNDECLARED_RISK;
}

/**
 * A known level for `value` (the legacy `'network'` → `'egress'`), else `undefined`.
 *
 * @example
 * ```ts
 * knownRisk('network'); // 'egress'
 * knownRisk('reed');    // undefined
 * ```
 */
export function knownRisk(value: unknown): ToolRisk | undefined {
  if (typeof value !== 'string') return undefined;
  if ((TOOL_RISKS as readonly string[]).includes(value)) return value as ToolRisk;
  return Object.hasOwn(LEGACY, value) ? LEGACY[value] : undefined;
}
