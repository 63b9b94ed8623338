import { thrownMessage } from '../core/read-thrown.js';
import type { ToolResult } from '../core/tool.js';
import type { McpCallToolResult, McpContent } from './mcp-client.js';

/**
 * Maps a `tools/call` result to a ToolResult: text content joined by newlines (other content
 * as short placeholders; structured content as JSON when there is no text); `isError: true` →
 * a failed result carrying the server's text. Structured content travels as `data`.
 *
 * @example
 * ```ts
 * mcpResultToToolResult({ content: [{ type: 'text', text: 'hi' }] }); // { success: true, output: 'hi' }
 * ```
 */
export function mcpResultToToolResult(result: McpCallToolResult): ToolResult {
  let output = '';
  for (const block of result.content ?? []) output += (output.length > 0 ? '\n' : '') + contentText(block);
  if (output.length === 0 && result.structuredContent !== undefined) output = JSON.stringify(result.structuredContent);
  if (output.length === 0 && result.content === undefined && result.toolResult !== undefined) {
    output = typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult);
  }
  const data = result.structuredContent !== undefined ? { data: result.structuredContent } : {};
  if (result.isError === true) {
    return { success: false, output, error: output.length > 0 ? output : 'the MCP tool reported an error without details', ...data };
  }
  return { success: true, output, ...data };
}

/**
 * A failed call (a JSON-RPC error, a timeout, a closed connection) as a failed ToolResult.
 *
 * @example
 * ```ts
 * client.callTool(params).then(mcpResultToToolResult, (err) => mcpFailure('github', err));
 * ```
 */
export function mcpFailure(server: string, err: unknown): ToolResult {
  const message = thrownMessage(err);
  // The SDK repeats the "MCP error {code}: " prefix for some errors; say it once.
  const once = message.replace(/^(MCP error -?\d+: )(?:\1)+/, '$1');
  return { success: false, output: '', error: `MCP server '${server}' failed the call: ${once}` };
}

function contentText(block: McpContent): string {
  switch (block.type) {
    case 'text':
      return block.text ?? '';
    case 'resource':
      return block.resource?.text ?? `[resource: ${block.resource?.uri ?? 'unknown'}]`;
    case 'resource_link':
      return `[resource: ${block.uri ?? 'unknown'}]`;
    default:
      return `[${block.type}${block.mimeType ? `: ${block.mimeType}` : ''}]`;
  }
}
