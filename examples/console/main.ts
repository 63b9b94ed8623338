/**
 * `npm run console`: the web approval console on the demo agent. Prints the page's URL (with
 * its session token); open it, send the message, and approve, deny, always-allow or replace the
 * `file_write` call from the browser. Uses the embedded scripted model unless OPENAI_BASE_URL /
 * OPENAI_API_KEY (and RTL_MODEL) pick a real OpenAI-compatible server (see provider-from-env.ts).
 *
 *   npm run console [-- --port 8787] [-- --host 127.0.0.1]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { providerFromEnv } from '../provider-from-env.js';
import { createApprovalConsole } from './approval-console.js';
import { createConsoleDemoAgent } from './demo-agent.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' } } });
  const real = providerFromEnv();
  const sandbox = await mkdtemp(join(tmpdir(), 'rtl-console-'));
  const web = createApprovalConsole({ host: values.host ?? '127.0.0.1', port: Number(values.port ?? 0) });
  web.serve(createConsoleDemoAgent({ request: web.request, root, sandbox, provider: real?.provider, model: real?.model }));
  const url = await web.listen();
  process.stdout.write(
    `Approval console for the demo agent (${real ? real.description : 'embedded scripted model'}).\n` +
      `file_write writes into ${sandbox}\n\n` +
      `Open: ${url}\n\n` +
      `The token in the URL is this session's key: keep it private. Ctrl-C stops the console.\n`,
  );
  const stop = async (): Promise<void> => {
    await web.close();
    await rm(sandbox, { recursive: true, force: true });
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
