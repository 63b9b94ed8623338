import { ConfigurationError } from '../core/errors.js';
import type { ToolRisk } from '../core/tool.js';
import { knownRisk, TOOL_RISKS, UNDECLARED_RISK } from '../core/tool-risk.js';
import type { McpToolInfo } from './mcp-client.js';

/** What decides an MCP tool's risk besides its annotations. */
export interface McpRiskOptions {
  readonly server: string;
  /** The caller's risk for every tool of the server. */
  readonly risk?: ToolRisk;
  /** Whether the server's `readOnlyHint` may lower a tool's risk to `'read'`. */
  readonly trustAnnotations?: boolean;
}

/**
 * An MCP tool's risk. Annotations are the server's own claims, so only those that raise the risk
 * always count: `destructiveHint: true` → `'exec'`. Otherwise the caller's `risk`; without one,
 * `readOnlyHint: true` → `'read'` when the caller trusts the server (`trustAnnotations: true`),
 * and everything else → `'write'`. Throws a `ConfigurationError` for a `risk` that is no level.
 *
 * @example
 * ```ts
 * mcpRisk({ name: 'q', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, { server: 'db' }); // 'write'
 * mcpRisk({ name: 'q', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, { server: 'db', trustAnnotations: true }); // 'read'
 * ```
 */
export function mcpRisk(info: McpToolInfo, options: McpRiskOptions): ToolRisk {
  const annotations = info.annotations;
  if (annotations?.destructiveHint === true) return 'exec';
  if (options.risk !== undefined) {
    const risk = knownRisk(options.risk);
    if (risk === undefined) {
      throw new ConfigurationError(`MCP server '${options.server}': unknown risk '${String(options.risk)}': use ${TOOL_RISKS.join(', ')}.`);
    }
    return risk;
  }
  return options.trustAnnotations === true && annotations?.readOnlyHint === true ? 'read' : UNDECLARED_RISK;
}
