import { createHash } from 'node:crypto';
import { ConfigurationError } from '../core/errors.js';

const MAX_NAME = 64;

/**
 * The loop's name for a server's tool: `{server}__{tool}`, with characters providers reject
 * replaced by `_`. A name longer than 64 characters is cut and ends in a short hash of the
 * original, so it stays unique.
 *
 * @example
 * ```ts
 * mcpToolName('github', 'search.issues'); // 'github__search_issues'
 * ```
 */
export function mcpToolName(server: string, tool: string): string {
  assertServerName(server);
  const name = `${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (name.length <= MAX_NAME) return name;
  const hash = createHash('sha256').update(`${server}__${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${hash}`;
}

/** A server name is 1-32 letters, digits, '-' or single '_' (a double '__' would blur the name split). */
export function assertServerName(server: string): void {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(server) || server.includes('__') || server.endsWith('_')) {
    throw new ConfigurationError(
      `Invalid MCP server name '${server}': use 1-32 letters, digits, '-' or '_' (no '__', not ending in '_').`,
    );
  }
}
