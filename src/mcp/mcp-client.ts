/**
 * The part of an `@modelcontextprotocol/sdk` `Client` that `mcpTools` uses, typed structurally:
 * pass a connected `Client` (any transport: stdio, Streamable HTTP); the library itself never
 * imports the SDK.
 */
export interface McpClient {
  listTools(params?: { cursor?: string }, options?: McpRequestOptions): Promise<McpListToolsResult>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: McpRequestOptions,
  ): Promise<McpCallToolResult>;
}

/** Request options the SDK takes: `signal` cancels (sending `notifications/cancelled`). */
export interface McpRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
}

/**
 * A tool as an MCP server lists it. Its annotations are the server's own claims: `mcpRisk` lets
 * them raise a tool's risk, never lower it below the caller's (see there). Optional fields here
 * and below may hold `undefined`, as the SDK types them: a `Client` fits under
 * `exactOptionalPropertyTypes`.
 */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly annotations?: {
    readonly title?: string | undefined;
    readonly readOnlyHint?: boolean | undefined;
    readonly destructiveHint?: boolean | undefined;
    readonly idempotentHint?: boolean | undefined;
    readonly openWorldHint?: boolean | undefined;
  } | undefined;
}

export interface McpListToolsResult {
  readonly tools: readonly McpToolInfo[];
  readonly nextCursor?: string | undefined;
}

/** One content block of a tool result. */
export interface McpContent {
  readonly type: string;
  readonly text?: string | undefined;
  readonly mimeType?: string | undefined;
  readonly uri?: string | undefined;
  readonly resource?: { readonly uri?: string | undefined; readonly text?: string | undefined; readonly mimeType?: string | undefined } | undefined;
}

/** A `tools/call` result (`toolResult` is the pre-2024-11 compatibility shape). */
export interface McpCallToolResult {
  readonly content?: readonly McpContent[] | undefined;
  readonly isError?: boolean | undefined;
  readonly structuredContent?: unknown;
  readonly toolResult?: unknown;
}
