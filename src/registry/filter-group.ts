import { ConfigurationError } from '../core/errors.js';
import type { Tool } from '../core/tool.js';
import { globMatcher } from './glob-matcher.js';

/**
 * Decides which MCP tools a turn exposes — static, deferred and already activated ones alike.
 * `always`: the matching tools are always exposed (and deferred ones are activated up front);
 * `dynamic`: exposed only when one of `keywords` appears in the user's message,
 * case-insensitively — a deferred tool it hides is neither listed nor activatable, and an
 * activated one is not offered, in a turn whose message does not match. `tools` are name globs.
 */
export interface FilterGroup {
  readonly mode: 'always' | 'dynamic';
  readonly tools: readonly string[];
  readonly keywords?: readonly string[];
}

/** Filter groups compiled once per agent. */
export interface CompiledFilterGroups {
  /** The predicate for one turn's message: built-in tools always pass; no groups → all pass. */
  forMessage(message: string): (tool: Tool) => boolean;
  /** Tools an `always` group names (deferred ones are activated up front). */
  always(tool: Tool): boolean;
}

/** True for tools that come from an MCP server (the only ones filter groups affect). */
export const isMcpTool = (tool: Tool): boolean => tool.attribution.source === 'mcp';

/** No filter groups: every tool exposed, none always activated (one object for every agent without groups). */
const exposeAll = (): boolean => true;
const NO_FILTER_GROUPS: CompiledFilterGroups = Object.freeze({ forMessage: () => exposeAll, always: () => false });

/**
 * Compiles filter groups. With no groups every tool passes; with groups, an MCP tool passes
 * when an `always` group matches it, or a `dynamic` group matches it and one of its keywords is
 * in the message.
 *
 * @example
 * ```ts
 * const groups = compileFilterGroups([{ mode: 'dynamic', tools: ['github__*'], keywords: ['pull request'] }]);
 * turnTools.filter(groups.forMessage('Review my Pull Request'));
 * ```
 */
export function compileFilterGroups(groups: readonly FilterGroup[] | undefined): CompiledFilterGroups {
  if (!groups || groups.length === 0) return NO_FILTER_GROUPS;
  const compiled = groups.map((group) => {
    if (group.mode !== 'always' && group.mode !== 'dynamic') {
      throw new ConfigurationError(`Filter group mode must be 'always' or 'dynamic', not '${String(group.mode)}'.`);
    }
    if (group.mode === 'dynamic' && !(group.keywords && group.keywords.length > 0)) {
      throw new ConfigurationError(`A dynamic filter group needs keywords (tools: ${group.tools.join(', ')}).`);
    }
    return {
      mode: group.mode,
      matches: globMatcher(group.tools),
      keywords: (group.keywords ?? []).map((k) => k.toLowerCase()).filter((k) => k.length > 0),
    };
  });
  const alwaysGroups = compiled.filter((g) => g.mode === 'always');
  const always = (tool: Tool): boolean => alwaysGroups.some((g) => g.matches(tool.name));
  return {
    always,
    forMessage(message) {
      const lower = message.toLowerCase();
      const active = compiled.filter((g) => g.mode === 'always' || g.keywords.some((k) => lower.includes(k)));
      return (tool) => !isMcpTool(tool) || active.some((g) => g.matches(tool.name));
    },
  };
}
