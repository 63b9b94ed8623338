/**
 * `npm run console`: the web approval console on the demo agent. Prints the page's URL (with
 * its session token); open it, send the message, and approve, deny, always-allow or replace the
 * `file_write` call from the browser. Uses the embedded scripted model unless OPENAI_BASE_URL /
 * OPENAI_API_KEY (and RTL_MODEL) pick a real OpenAI-compatible server (see provider-from-env.ts).
 *
 * With `--database-url` the turns are durable in PostgreSQL: they park at the approval, and
 * every console started on the same database (on any machine) lists, shows and decides them;
 * the instance that records a turn's last decision continues it. Give every such console the
 * same RTL_SNAPSHOT_KEY (16+ characters): a parked turn is sealed with it, and a console with
 * another key refuses to resume it.
 *
 *   npm run console [-- --port 8787] [-- --host 127.0.0.1] [-- --database-url postgres://…]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pauseForApproval } from '../../src/index.js';
import { providerFromEnv } from '../provider-from-env.js';
import { createApprovalConsole } from './approval-console.js';
import { createConsoleDemoAgent } from './demo-agent.js';
import { openDurableDemo } from './durable-demo.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' }, 'database-url': { type: 'string' } } });
  const real = providerFromEnv();
  const sandbox = await mkdtemp(join(tmpdir(), 'rtl-console-'));
  const databaseUrl = values['database-url'];
  const host = values.host ?? '127.0.0.1';
  const port = Number(values.port ?? 0);
  // consoles on one database resume each other's parked turns: they share RTL_SNAPSHOT_KEY
  const snapshotKey = process.env.RTL_SNAPSHOT_KEY;
  const demo = { root, sandbox, provider: real?.provider, model: real?.model, ...(snapshotKey ? { snapshotKey } : {}) };
  // durable: the turns park at the approval (no console request waits), in the database
  const parks = () => {
    throw new Error('A durable turn parks instead of asking.');
  };
  const durable = databaseUrl ? await openDurableDemo(databaseUrl, createConsoleDemoAgent({ ...demo, request: parks, frontDoor: pauseForApproval() })) : undefined;
  const web = createApprovalConsole({ host, port, durable: durable?.agent });
  if (!durable) web.serve(createConsoleDemoAgent({ ...demo, request: web.request }));
  const url = await web.listen();
  process.stdout.write(
    `Approval console for the demo agent (${real ? real.description : 'embedded scripted model'}).\n` +
      `file_write writes into ${sandbox}\n` +
      (durable ? `Turns are durable in the database; other consoles on it show and decide them too.\n` : '') +
      `\nOpen: ${url}\n\n` +
      `The token in the URL is this session's key: keep it private. Ctrl-C stops the console.\n`,
  );
  const stop = async (): Promise<void> => {
    await web.close();
    await durable?.close();
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
