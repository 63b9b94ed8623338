// MCP: an MCP server's tools as loop tools.
export { mcpTools } from './mcp-tools.js';
export type { McpToolsOptions } from './mcp-tools.js';
export { mcpToolName } from './mcp-tool-name.js';
export type {
  McpClient,
  McpRequestOptions,
  McpToolInfo,
  McpListToolsResult,
  McpContent,
  McpCallToolResult,
} from './mcp-client.js';
