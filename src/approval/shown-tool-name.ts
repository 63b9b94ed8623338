import { scrubCredentials } from '../results/scrub.js';
import { escapeUnsafe } from './escape-unsafe.js';

/**
 * A tool's name as an operator reads it on an approval surface: token shapes scrubbed (a tool or
 * an MCP server can be named like a credential, `ghp_…`, `sk-…`), then anything that could restyle,
 * hide or reorder the text escaped. Only for showing: allow-lists, audit and the tool itself keep
 * the real name.
 *
 * @example
 * ```ts
 * shownToolName('file_write');                      // 'file_write'
 * shownToolName('sk-abcdefghijklmnopqrstuvwxyz012'); // '[REDACTED]'
 * ```
 */
export function shownToolName(name: string): string {
  return escapeUnsafe(scrubCredentials(name));
}
