import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';
import { FIXTURE_ENV, type FixtureConfig } from '../fixtures/mcp-hostile.js';

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
