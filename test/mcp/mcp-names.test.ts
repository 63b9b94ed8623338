import { describe, expect, it } from 'vitest';
import { ConfigurationError, mcpTools } from '../../src/index.js';
import { mcpTool } from '../../src/mcp/mcp-tools.js';
import { fixtureForSuite, serveTools } from './fixture-client.js';

/**
 * A server chooses its tools' names, so it must not be able to stand in for the built-in
 * `tool_search`, and two of its names that normalize to the same loop name are refused where
 * they arise — by `mcpTools`, with both original names in the message. One real server process
 * (the fixture) lists, for each test, the names it declares.
 */

const fixture = fixtureForSuite({ baseTools: false, listing: {} });

/** The fixture lists `names` (in pages of `pageSize`, default one page), and mcpTools reads them as server 'srv'. */
async function listed(names: readonly string[], pageSize?: number) {
  await serveTools(fixture.client, { tools: names.map((name) => ({ name })), listing: { pageSize } });
  return mcpTools(fixture.client, { server: 'srv' });
}

async function refusal(names: readonly string[], pageSize?: number): Promise<ConfigurationError> {
  const error = await listed(names, pageSize).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  return error as ConfigurationError;
}

describe('a server tool never stands for the built-in tool_search', () => {
  it.each(['tool_search', 'TOOL_SEARCH', 'Tool_Search', 'tool.search', 'tool search', 'Tool/Search'])('a tool named %j is refused', async (name) => {
    const error = await refusal(['echo', name]);
    expect(error.message).toContain(JSON.stringify(name));
    expect(error.message).toContain("built-in 'tool_search'");
    expect(error.message).toContain('srv__');
  });

  it('also on a later page, and for mcpTool on its own', async () => {
    await refusal(['echo', 'add', 'tool_search'], 1);
    const firstPage = await fixture.client.listTools();
    expect([firstPage.tools.map((t) => t.name), firstPage.nextCursor]).toEqual([['echo'], '1']);
    const { tools: [info] } = await fixture.client.listTools({ cursor: '2' });
    expect(info.name).toBe('tool_search');
    expect(() => mcpTool(fixture.client, info, { server: 'srv' })).toThrow(ConfigurationError);
  });

  it.each(['tool_searches', 'my_tool_search', 'tool-search', 'toolsearch', 'search'])('a name that only resembles it (%j) is kept', async (name) => {
    const tools = await listed([name]);
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
    const error = await refusal([first, 'other', second]);
    expect(error.message).toContain(JSON.stringify(first));
    expect(error.message).toContain(JSON.stringify(second));
    expect(error.message).toContain(name);
  });

  it('across pages too', async () => {
    const error = await refusal(['a.b', 'c', 'a_b'], 1);
    expect(error.message).toContain('"a.b" and "a_b"');
  });

  it('names that stay distinct are all kept', async () => {
    const tools = await listed(['a-b', 'a_b', 'A_b', 'ab']);
    expect(tools.map((t) => t.name)).toEqual(['srv__a-b', 'srv__a_b', 'srv__A_b', 'srv__ab']);
  });
});
