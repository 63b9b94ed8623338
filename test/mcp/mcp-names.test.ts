import { describe, expect, it } from 'vitest';
import { ConfigurationError, mcpTools, type McpClient, type McpToolInfo } from '../../src/index.js';
import { mcpTool } from '../../src/mcp/mcp-tools.js';

/**
 * A server chooses its tools' names, so it must not be able to stand in for the built-in
 * `tool_search`, and two of its names that normalize to the same loop name are refused where
 * they arise — by `mcpTools`, with both original names in the message.
 */

/** A client whose listing is `pages` (one page per entry), with a cursor between pages. */
function listingClient(pages: readonly (readonly string[])[]): McpClient {
  const client = {
    listTools: async (params?: { cursor?: string }) => {
      const index = params?.cursor !== undefined ? Number(params.cursor) : 0;
      const tools: McpToolInfo[] = pages[index].map((name) => ({ name, inputSchema: { type: 'object' } }));
      return index + 1 < pages.length ? { tools, nextCursor: String(index + 1) } : { tools };
    },
    callTool: async () => ({ content: [] }),
  };
  return client as unknown as McpClient;
}

async function refusal(pages: readonly (readonly string[])[], server = 'srv'): Promise<ConfigurationError> {
  const error = await mcpTools(listingClient(pages), { server }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  return error as ConfigurationError;
}

describe('a server tool never stands for the built-in tool_search', () => {
  it.each(['tool_search', 'TOOL_SEARCH', 'Tool_Search', 'tool.search', 'tool search', 'Tool/Search'])('a tool named %j is refused', async (name) => {
    const error = await refusal([['echo', name]]);
    expect(error.message).toContain(JSON.stringify(name));
    expect(error.message).toContain("built-in 'tool_search'");
    expect(error.message).toContain('srv__');
  });

  it('also on a later page, and for mcpTool on its own', async () => {
    await refusal([['echo'], ['add', 'tool_search']]);
    expect(() => mcpTool(listingClient([[]]), { name: 'tool_search', inputSchema: { type: 'object' } }, { server: 'srv' })).toThrow(ConfigurationError);
  });

  it.each(['tool_searches', 'my_tool_search', 'tool-search', 'toolsearch', 'search'])('a name that only resembles it (%j) is kept', async (name) => {
    const tools = await mcpTools(listingClient([[name]]), { server: 'srv' });
    expect(tools).toHaveLength(1);
  });
});

describe('names that normalize to the same loop name are refused by mcpTools, naming both', () => {
  it.each([
    ['a.b', 'a_b', 'srv__a_b'],
    ['a_b', 'a.b', 'srv__a_b'],
    ['a b', 'a.b', 'srv__a_b'],
    ['x/y', 'x:y', 'srv__x_y'],
    ['files.read', 'files_read', 'srv__files_read'],
    ['café', 'caf_', 'srv__caf_'],
    ['echo', 'echo', 'srv__echo'],
  ])('%j and %j → %s', async (first, second, name) => {
    const error = await refusal([[first, 'other', second]]);
    expect(error.message).toContain(JSON.stringify(first));
    expect(error.message).toContain(JSON.stringify(second));
    expect(error.message).toContain(name);
  });

  it('across pages too', async () => {
    const error = await refusal([['a.b'], ['c'], ['a_b']]);
    expect(error.message).toContain('"a.b" and "a_b"');
  });

  it('names that stay distinct are all kept', async () => {
    const tools = await mcpTools(listingClient([['a-b', 'a_b', 'A_b', 'ab']]), { server: 'srv' });
    expect(tools.map((t) => t.name)).toEqual(['srv__a-b', 'srv__a_b', 'srv__A_b', 'srv__ab']);
  });
});
