import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatFullArgs } from '../../src/index.js';
import { fakeTool } from '../../src/testing/index.js';
import { HIDDEN_PAYLOADS, PAYLOAD } from '../approval/full-args-shapes.js';
import { launchChromium, nextRecord, openConsole, post, sendAndAwaitApproval, startConsole, type RunningConsole } from './helpers.js';

let browser: Browser;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A console whose model makes one call of `tool` with `args` (the demo's file_write, or a fake). */
async function consoleCalling(tool: string, args: Record<string, unknown>): Promise<RunningConsole> {
  const rc = await startConsole({
    script: [{ toolCalls: [{ id: 'call_x', name: tool, arguments: args }] }, { text: 'end' }],
    extraTools: tool === 'file_write' ? [] : [fakeTool(tool, 'ok')],
  });
  cleanups.push(() => rc.close());
  return rc;
}

async function pageFor(rc: RunningConsole): Promise<Page> {
  const page = await openConsole(browser, rc.url);
  cleanups.push(() => page.close());
  return page;
}

const card = '[data-card="approval"]';

describe('web console: the operator sees every argument the tool will receive (escaped, expandable)', () => {
  it.each(HIDDEN_PAYLOADS)('$label: the approval card shows the payload, open from the start', async ({ tool, args }) => {
    const rc = await consoleCalling(tool, args);
    const page = await pageFor(rc);
    await sendAndAwaitApproval(page, 'go');
    await expect(page.locator(`${card} .summary`).textContent()).resolves.toMatch(/… \(\d+ more characters\)/);
    const full = page.locator(`${card} details.full-args`);
    await expect(full.getAttribute('open')).resolves.toBe('');
    await expect(full.locator('pre.arguments').isVisible()).resolves.toBe(true);
    const shown = await full.locator('pre.arguments').textContent();
    expect(shown).toContain(PAYLOAD);
    expect(shown).toBe(formatFullArgs(args, { width: Infinity, indent: '' }));
    await expect(full.locator('summary').textContent()).resolves.toBe(`All arguments (${shown!.length} characters)`);
  });

  it('the full view can be collapsed and expanded again', async () => {
    const [{ tool, args }] = HIDDEN_PAYLOADS;
    const page = await pageFor(await consoleCalling(tool, args));
    await sendAndAwaitApproval(page, 'go');
    const full = page.locator(`${card} details.full-args`);
    await full.locator('summary').click();
    await expect(full.locator('pre.arguments').isVisible()).resolves.toBe(false);
    await full.locator('summary').click();
    await expect(full.locator('pre.arguments').isVisible()).resolves.toBe(true);
  });

  it('markup, newlines and bidi controls in arguments are shown escaped, as text', async () => {
    const args = { path: 'x.html', content: `<img src=x onerror="document.title='owned'">\nline two \u202eevil \u001b[2J` };
    const page = await pageFor(await consoleCalling('file_write', args));
    await sendAndAwaitApproval(page, 'go');
    const shown = await page.locator(`${card} pre.arguments`).textContent();
    expect(shown).toContain(`content: <img src=x onerror="document.title='owned'">\\nline two \\u202eevil \\u001b[2J`);
    expect(shown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202a-\u202e]/);
    await expect(page.locator(`${card} img`).count()).resolves.toBe(0);
    await expect(page.title()).resolves.not.toBe('owned');
  });

  it('nested objects and arrays are shown whole as indented JSON', async () => {
    const args = { env: 'prod', plan: { steps: [{ run: 'a'.repeat(120) }, { run: 'b', tags: ['x', PAYLOAD] }] } };
    const page = await pageFor(await consoleCalling('deploy', args));
    await sendAndAwaitApproval(page, 'go');
    const shown = await page.locator(`${card} pre.arguments`).textContent();
    expect(shown).toBe(`env: prod\nplan: ${JSON.stringify(args.plan, null, 2)}`);
  });

  it('the approval-open record carries the full arguments, so a reconnecting page shows them too', async () => {
    const [{ tool, args }] = HIDDEN_PAYLOADS;
    const rc = await consoleCalling(tool, args);
    const open = nextRecord(rc.web, (r) => r.event.type === 'approval-open');
    expect((await post(rc, '/api/turns', { message: 'go' })).status).toBe(202);
    const { event } = await open;
    expect(event).toMatchObject({ type: 'approval-open', arguments: formatFullArgs(args, { width: Infinity, indent: '' }) });
    const page = await pageFor(rc);
    await page.waitForSelector(`${card}[data-state="pending"]`);
    await expect(page.locator(`${card} pre.arguments`).textContent()).resolves.toContain(PAYLOAD);
  });
});
