import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { FIXTURE_ENV, type FixtureConfig, type ServedTools } from '../fixtures/mcp-hostile.js';

/** The fixture server's entry, run with tsx as a child process. */
export const fixtureServerPath = fileURLToPath(new URL('../fixtures/mcp-server.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts the fixture MCP server as a child process (stdio) and connects a client to it.
 * Close the client to end the process. `config` asks for a hostile server (`mcp-hostile.ts`).
 */
export async function connectFixture(config?: FixtureConfig): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', fixtureServerPath],
    cwd: repoRoot,
    stderr: 'inherit',
    ...(config ? { env: { [FIXTURE_ENV]: JSON.stringify(config) } } : {}),
  });
  const client = new Client({ name: 'rx-tool-loop-tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/**
 * One fixture server process for the file (or `describe`) that calls this: connected in
 * `beforeAll`, closed in `afterAll`; read `.client` in the tests and later hooks.
 */
export function fixtureForSuite(config?: FixtureConfig): { readonly client: Client } {
  const suite = { client: undefined as unknown as Client };
  beforeAll(async () => {
    suite.client = await connectFixture(config);
  }, 60_000);
  afterAll(async () => {
    await suite.client?.close();
  });
  return suite;
}

/** The text of a fixture tool's answer; a failed answer throws. */
async function answer(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  const content = (result.content as { type: string; text: string }[])[0].text;
  if (result.isError) throw new Error(`the fixture's ${name} failed: ${content}`);
  return content;
}

/**
 * Has a fixture started with a config (`connectFixture({ baseTools: false, listing: {} })`)
 * swap its configured tools and listing for `served`, and clear its call log: each test of a
 * file declares its tools, and one server process serves them all.
 */
export async function serveTools(client: Client, served: ServedTools): Promise<void> {
  await answer(client, 'serve_tools', { config: JSON.stringify(served) });
}

/** The configured tools the fixture ran since it last served tools, in its own words (`call_log`). */
export async function toolsRan(client: Client): Promise<string[]> {
  return JSON.parse(await answer(client, 'call_log')) as string[];
}
