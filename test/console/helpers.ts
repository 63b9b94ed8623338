import { afterEach, expect } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Tool } from '../../src/index.js';
import { scriptedModel, type ScriptedResponse } from '../../src/testing/index.js';
import { createApprovalConsole, type ApprovalConsole, type ApprovalConsoleOptions } from '../../examples/console/approval-console.js';
import { createConsoleDemoAgent } from '../../examples/console/demo-agent.js';
import type { WireRecord } from '../../examples/console/wire.js';

export const root = new URL('../../', import.meta.url).pathname;

/** Headless Chromium: Debian's where installed, else the one `npm ci` brought (see chromium.ts). */
export { launchChromium } from './chromium.js';

export interface RunningConsole {
  readonly web: ApprovalConsole;
  readonly url: string;
  readonly base: string;
  readonly sandbox: string;
  close(): Promise<void>;
}

/**
 * A console on the demo agent, listening on a free loopback port. `script` replaces the demo's
 * scripted model; `extraTools` join the demo's four tools.
 */
export async function startConsole(
  options: ApprovalConsoleOptions & { script?: readonly ScriptedResponse[]; extraTools?: readonly Tool[] } = {},
): Promise<RunningConsole> {
  const sandbox = await mkdtemp(join(tmpdir(), 'rtl-console-test-'));
  const web = createApprovalConsole(options);
  const provider = options.script ? scriptedModel(options.script) : undefined;
  web.serve(createConsoleDemoAgent({ request: web.request, root, sandbox, provider, extraTools: options.extraTools }));
  const url = await web.listen();
  return {
    web,
    url,
    base: new URL(url).origin,
    sandbox,
    close: async () => {
      await web.close();
      await rm(sandbox, { recursive: true, force: true });
    },
  };
}

/** Resolves with the first record after `afterSeq` (default: from the start) that matches. */
export function nextRecord(web: ApprovalConsole, match: (record: WireRecord) => boolean, afterSeq = 0): Promise<WireRecord> {
  return new Promise((resolve) => {
    let stop: (() => void) | undefined;
    let found: WireRecord | undefined;
    stop = web.session.watch(afterSeq, (record) => {
      if (found || !match(record)) return;
      found = record;
      stop?.();
      resolve(record);
    }, { operator: false });
    if (found) stop();
  });
}

/** Opens the console in a new page and waits until its event stream is connected. */
export async function openConsole(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector('#status[data-state="connected"]');
  return page;
}

/** Sends the composer's message and waits for the first approval card to await a decision. */
export async function sendAndAwaitApproval(page: Page, message?: string): Promise<void> {
  if (message !== undefined) await page.fill('#message', message);
  await page.click('#send');
  await page.waitForSelector('[data-card="approval"][data-state="pending"]');
}

/** A POST to the console with the session token in its header. */
export const post = (rc: RunningConsole, path: string, body: unknown, token = rc.web.token) =>
  fetch(`${rc.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-console-token': token },
    body: JSON.stringify(body),
  });

/**
 * Consoles for one test file, each closed after its test: call once at the top of the file.
 * `cleanups` takes anything else a test opens (pages, contexts, listeners); all run after each
 * test, newest first.
 */
export function consolesPerTest(): {
  readonly cleanups: (() => Promise<unknown>)[];
  consoleFor(options?: Parameters<typeof startConsole>[0]): Promise<RunningConsole>;
} {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    cleanups,
    async consoleFor(options = {}) {
      const rc = await startConsole(options);
      cleanups.push(() => rc.close());
      return rc;
    },
  };
}

/** Starts the demo turn and resolves with the request id once the approval is pending. */
export async function pendingApproval(rc: RunningConsole): Promise<string> {
  const open = nextRecord(rc.web, (r) => r.event.type === 'approval-open', rc.web.session.lastSeq);
  expect((await post(rc, '/api/turns', { message: 'save it' })).status).toBe(202);
  const { event } = await open;
  if (event.type !== 'approval-open') throw new Error('unreachable');
  return event.requestId;
}
