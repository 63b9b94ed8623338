import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/openai-server.js';
import { launchChromium, openConsole, sendAndAwaitApproval } from './helpers.js';

const root = new URL('../../', import.meta.url).pathname;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Started {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly url: string;
  readonly stdout: string;
  readonly exited: Promise<unknown[]>;
}

/** Runs `npm run console`'s entry point and resolves once it printed its URL. */
async function startMain(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/console/main.ts'], {
    cwd: root,
    env: { ...process.env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', RTL_MODEL: '', RTL_TOOL_PROTOCOL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM'); // the console removes its sandbox folder on SIGTERM
    await exited;
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const found = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32})\n/.exec(stdout);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the console exited with ${code} before printing its URL:\n${stdout}${stderr}`)));
  });
  return { child, url, stdout, exited };
}

describe('npm run console', () => {
  it('starts the console on the demo agent, prints the URL with its token, and stops cleanly on SIGTERM', async () => {
    const { child, url, stdout, exited } = await startMain({});
    expect(stdout).toContain('embedded scripted model');
    const sandbox = /file_write writes into (.+)\n/.exec(stdout)?.[1] ?? '';
    expect(existsSync(sandbox)).toBe(true);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<main id="conversation"');
    expect((await fetch(new URL(url).origin)).status).toBe(401);
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(existsSync(sandbox)).toBe(false);
  });

  it('with OPENAI_BASE_URL, OPENAI_API_KEY and RTL_MODEL the turn runs on that server, and its write waits for the page', async () => {
    const server = await startOpenAIServer([
      { kind: 'reply', toolCalls: [{ id: 'call_real', name: 'file_write', arguments: '{"path":"real.md","content":"from a real server"}' }] },
      { kind: 'reply', text: ['Saved ', 'real.md.'] },
    ]);
    cleanups.push(() => server.close());
    const { url, stdout } = await startMain({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key', RTL_MODEL: 'fixture-model' });
    expect(stdout).toContain(`fixture-model at ${server.baseURL}`);
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await openConsole(browser, url);
    await sendAndAwaitApproval(page);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body.model).toBe('fixture-model');
    expect(server.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('file_write');
    await page.click('[data-action="yes"]');
    await page.waitForSelector('[data-call-id="call_real"][data-outcome="executed"]');
    await page.waitForSelector('[data-role="final"]');
    await expect(page.locator('[data-role="final"] .final-text').textContent()).resolves.toBe('Saved real.md.');
    await page.close();
  });
});
