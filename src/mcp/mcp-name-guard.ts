import { ConfigurationError } from '../core/errors.js';
import { TOOL_SEARCH } from '../core/tool.js';

/**
 * Refuses a server tool whose loop name would stand for the built-in `tool_search`: a call
 * named `tool_search` resolves to a unique `{server}__tool_search` once the built-in leaves the
 * specs (every deferred tool active), so such a tool could take the built-in's place. Compared
 * without letter case, after the `{server}__{tool}` normalization (`Tool.Search` counts too).
 *
 * @example
 * ```ts
 * assertNotBuiltIn('fx', 'tool_search', 'fx__tool_search'); // throws ConfigurationError
 * ```
 */
export function assertNotBuiltIn(server: string, original: string, name: string): void {
  const prefix = `${server}__`;
  const suffix = name.startsWith(prefix) ? name.slice(prefix.length) : name;
  if (suffix.toLowerCase() !== TOOL_SEARCH) return;
  throw new ConfigurationError(
    `MCP server '${server}' has a tool named ${JSON.stringify(original)} (${name}), which would stand for the built-in ` +
      `'${TOOL_SEARCH}'; that name is reserved and the built-in always wins. Rename the tool on the server, ` +
      `or leave it out of the listing you pass to mcpTools.`,
  );
}

/**
 * Refuses two server tools that get the same loop name (`a.b` and `a_b` are both
 * `{server}__a_b`), naming both originals, so the clash is reported where it arises rather than
 * as a bare duplicate name when the agent is created.
 *
 * @example
 * ```ts
 * assertDistinctNames('fx', [{ original: 'a.b', name: 'fx__a_b' }, { original: 'a_b', name: 'fx__a_b' }]);
 * // throws ConfigurationError: … 'a.b' and 'a_b' both become 'fx__a_b' …
 * ```
 */
export function assertDistinctNames(server: string, tools: readonly { readonly original: string; readonly name: string }[]): void {
  const seen = new Map<string, string>();
  for (const { original, name } of tools) {
    const first = seen.get(name);
    if (first === undefined) {
      seen.set(name, original);
      continue;
    }
    throw new ConfigurationError(
      `MCP server '${server}' has tools ${JSON.stringify(first)} and ${JSON.stringify(original)} that both become ` +
        `'${name}' (characters other than letters, digits, '_' and '-' become '_'); rename one on the server.`,
    );
  }
}
