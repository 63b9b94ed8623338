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
 * An MCP tool's risk. The floor is the caller's: `risk` when given; else, for a server the caller
 * trusts (`trustAnnotations: true`), `'read'` for a tool annotated `readOnlyHint: true`; else
 * `'write'`. Annotations are the server's own claims, so they only ever raise it, trusted or not:
 * `destructiveHint: true` → `'exec'`; an explicit `readOnlyHint: false` → at least `'write'`; an
 * explicit `openWorldHint: true` (it reaches outside: a read that can send data away) → at least
 * `'egress'`. Nothing a server says lowers the floor: `destructiveHint: false`, `idempotentHint`,
 * `openWorldHint: false`, a title or a description that claims safety count for nothing (and
 * `idempotentHint` never makes a tool run again after a crash). Throws a `ConfigurationError`
 * for a `risk` that is no level.
 *
 * @example
 * ```ts
 * mcpRisk({ name: 'q', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, { server: 'db' }); // 'write'
 * mcpRisk({ name: 'q', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, { server: 'db', trustAnnotations: true }); // 'read'
 * mcpRisk({ name: 'f', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: true } }, { server: 'web', trustAnnotations: true }); // 'egress'
 * ```
 */
export function mcpRisk(info: McpToolInfo, options: McpRiskOptions): ToolRisk {
  const annotations = info.annotations;
  let floor: ToolRisk;
  if (options.risk !== undefined) {
    const risk = knownRisk(options.risk);
    if (risk === undefined) {
      throw new ConfigurationError(`MCP server '${options.server}': unknown risk '${String(options.risk)}': use ${TOOL_RISKS.join(', ')}.`);
    }
    floor = risk;
  } else {
    floor = options.trustAnnotations === true && annotations?.readOnlyHint === true ? 'read' : UNDECLARED_RISK;
  }
  if (annotations?.destructiveHint === true) return 'exec';
  if (annotations?.readOnlyHint === false) floor = atLeast(floor, 'write');
  if (annotations?.openWorldHint === true) floor = atLeast(floor, 'egress');
  return floor;
}

const atLeast = (risk: ToolRisk, least: ToolRisk): ToolRisk => (TOOL_RISKS.indexOf(risk) >= TOOL_RISKS.indexOf(least) ? risk : least);
