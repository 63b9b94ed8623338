import { ConfigurationError } from '../core/errors.js';
import { duration, MAX_TIMER_MS } from '../core/knobs.js';
import type { JsonSchema, Tool, ToolContext, ToolRisk, ToolSpec } from '../core/tool.js';
import { deepFreeze } from '../tool/deep-freeze.js';
import { jsonSchemaCheck } from './json-schema-check.js';
import type { McpClient, McpToolInfo } from './mcp-client.js';
import { assertDistinctNames, assertNotBuiltIn } from './mcp-name-guard.js';
import { mcpFailure, mcpResultToToolResult } from './mcp-result.js';
import { mcpRisk } from './mcp-risk.js';
import { assertServerName, mcpToolName } from './mcp-tool-name.js';

/** Options of `mcpTools`. */
export interface McpToolsOptions {
  /** The server's name: tools are called `{server}__{tool}`. */
  readonly server: string;
  /** Per-call timeout (the loop aborts the call, which cancels it on the server). */
  readonly timeoutMs?: number;
  /**
   * The risk of every tool of this server: the floor its annotations can raise but never lower
   * (`destructiveHint: true` → `'exec'`, explicit `readOnlyHint: false` → at least `'write'`,
   * explicit `openWorldHint: true` → at least `'egress'`). Default: `'write'`, or `'read'` for a
   * tool annotated `readOnlyHint` when `trustAnnotations`.
   */
  readonly risk?: ToolRisk;
  /**
   * Trust the server's `readOnlyHint` to lower a tool's risk to `'read'` (then approved without a
   * prompt and admitted by `risks: ['read']`). Default false: the hint is the server's own claim.
   */
  readonly trustAnnotations?: boolean;
  /** Cancels the listing. */
  readonly signal?: AbortSignal;
}

/** The most pages of one server's listing `mcpTools` reads; a listing that goes on is refused. */
export const MAX_MCP_LIST_PAGES = 1_000;

/** The most tools `mcpTools` takes from one server; a listing with more is refused. */
export const MAX_MCP_TOOLS = 10_000;

/**
 * Lists an MCP server's tools (all pages) and turns each into a Tool named `{server}__{tool}`,
 * attributed `{ source: 'mcp', server, originalName }`, with the risk `mcpRisk` gives (a
 * `readOnlyHint` counts only with `trustAnnotations: true`). The JSON Schema is the server's
 * `inputSchema`, frozen once and shared by every spec; arguments get a light check against it.
 * A call goes through `client.callTool` with the call's signal, so cancelling the turn sends
 * MCP's `notifications/cancelled`; `isError` results and protocol errors become failed results.
 * Throws a `ConfigurationError` for a tool that would stand for the built-in `tool_search`, and
 * for two tools that get the same name (`a.b` and `a_b` → `{server}__a_b`), naming both, and for
 * a listing that never ends: a cursor handed out twice, more than `MAX_MCP_LIST_PAGES` pages or
 * more than `MAX_MCP_TOOLS` tools.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
 * const client = new Client({ name: 'my-app', version: '1.0.0' });
 * await client.connect(new StdioClientTransport({ command: 'github-mcp' }));
 * const agent = createAgent({ provider, model, tools: [], deferredTools: await mcpTools(client, { server: 'github' }) });
 * const docs = await mcpTools(docsClient, { server: 'docs', trustAnnotations: true }); // read-only tools auto-approved
 * ```
 */
export async function mcpTools(client: McpClient, options: McpToolsOptions): Promise<Tool[]> {
  assertServerName(options.server);
  const tools: Tool[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor !== undefined ? { cursor } : undefined, options.signal ? { signal: options.signal } : undefined);
    for (const info of page.tools) tools.push(mcpTool(client, info, options));
    cursor = page.nextCursor === '' ? undefined : page.nextCursor;
    const endless = endlessListing(cursor, cursors, tools.length);
    if (endless !== undefined) throw new ConfigurationError(`MCP server '${options.server}' lists tools without end (${endless}); none of its tools is used.`);
    if (cursor !== undefined) cursors.add(cursor);
  } while (cursor !== undefined);
  assertDistinctNames(options.server, tools.map((tool) => ({ original: tool.attribution.originalName ?? tool.name, name: tool.name })));
  return tools;
}

/** Why a listing goes on without end, if it does: a cursor seen before, too many pages or tools. */
function endlessListing(cursor: string | undefined, seen: ReadonlySet<string>, tools: number): string | undefined {
  if (tools > MAX_MCP_TOOLS) return `more than ${MAX_MCP_TOOLS} tools`;
  if (cursor === undefined) return undefined;
  if (seen.has(cursor)) return 'a cursor handed out twice';
  return seen.size + 1 >= MAX_MCP_LIST_PAGES ? `more than ${MAX_MCP_LIST_PAGES} pages` : undefined;
}

/**
 * One MCP tool as a Tool (what `mcpTools` builds for each listed tool). Throws a
 * `ConfigurationError` when the tool would stand for the built-in `tool_search`.
 *
 * @example
 * ```ts
 * const tool = mcpTool(client, { name: 'echo', inputSchema: { type: 'object' } }, { server: 'fx' });
 * ```
 */
export function mcpTool(client: McpClient, info: McpToolInfo, options: McpToolsOptions): Tool<Record<string, unknown>> {
  const { server } = options;
  // whole ms; past Node's timer limit (Infinity included) is no deadline
  const timeoutMs = duration('mcpTools: timeoutMs', options.timeoutMs, undefined, true);
  const name = mcpToolName(server, info.name);
  assertNotBuiltIn(server, info.name, name);
  const description = info.description ?? info.title ?? info.annotations?.title ?? '';
  const parameters = inputSchema(info.inputSchema);
  const spec: ToolSpec = Object.freeze({ name, description, parameters });
  const requestTimeout = timeoutMs !== undefined ? Math.min(timeoutMs + 1_000, MAX_TIMER_MS) : undefined;
  const risk = mcpRisk(info, options);
  return Object.freeze({
    name,
    description,
    spec,
    openAI: Object.freeze({ type: 'function' as const, function: spec }),
    risk,
    approvalMarker: false,
    dedupExempt: false,
    timeoutMs,
    attribution: Object.freeze({ source: 'mcp', server, originalName: info.name }),
    check: jsonSchemaCheck(parameters),
    execute: (args: Record<string, unknown>, ctx: ToolContext) =>
      client
        .callTool({ name: info.name, arguments: args }, undefined, requestTimeout !== undefined ? { signal: ctx.signal, timeout: requestTimeout } : { signal: ctx.signal })
        .then(mcpResultToToolResult, (err: unknown) => mcpFailure(server, err)),
  });
}

/**
 * The server's schema, frozen once: nested schemas are frozen in place and shared; the top level
 * drops `$schema` (as defineTool does) and gets empty `properties` when it has none.
 */
function inputSchema(schema: McpToolInfo['inputSchema'] | undefined): JsonSchema {
  const { $schema: _ignored, ...rest }: Record<string, unknown> = schema ?? {};
  const properties = typeof rest.properties === 'object' && rest.properties !== null ? rest.properties : {};
  return deepFreeze({ ...rest, type: 'object', properties });
}
