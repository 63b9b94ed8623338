import type { Browser, Page } from 'playwright-core';
import { ReplaySubject } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderEvent } from '../../src/index.js';
import { fakeTool } from '../../src/testing/index.js';
import { launchChromium, nextRecord, openConsole, startConsole, type RunningConsole } from './helpers.js';

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

const delta = (argumentsDelta: string, first = false): ProviderEvent =>
  first ? { type: 'tool-call-delta', index: 0, id: 'call_d', name: 'deploy', argumentsDelta } : { type: 'tool-call-delta', index: 0, argumentsDelta };

/** A console whose model streams its one call of `deploy` as the test pushes events. */
async function streamingConsole(): Promise<{ rc: RunningConsole; page: Page; model: ReplaySubject<ProviderEvent> }> {
  const model = new ReplaySubject<ProviderEvent>();
  const rc = await startConsole({ script: [model, { text: 'end' }], extraTools: [fakeTool('deploy', 'deployed')] });
  cleanups.push(() => rc.close());
  const page = await openConsole(browser, rc.url);
  cleanups.push(() => page.close());
  await page.fill('#message', 'go');
  await page.click('#send');
  return { rc, page, model };
}

const streamingArgs = (page: Page, text: string) =>
  page.waitForFunction((want) => document.querySelector('[data-card="tool"][data-status="streaming"] .args')?.textContent === want, text);

describe('web console: a pending card shows a call\'s arguments as they stream', () => {
  it('the card fills delta by delta (scrubbed), then becomes the call\'s tool card once approved and run', async () => {
    const { rc, page, model } = await streamingConsole();
    model.next(delta('{"env":"pr', true));
    await streamingArgs(page, '{"env":"pr');
    await expect(page.locator('[data-status="streaming"] .name').textContent()).resolves.toBe('deploy');
    model.next(delta('od","password":"hunt'));
    await streamingArgs(page, '{"env":"prod","password":"[REDACTED]');
    model.next(delta('er2"}'));
    await streamingArgs(page, '{"env":"prod","password":"[REDACTED]"}');
    model.next({ type: 'tool-call', id: 'call_d', name: 'deploy', arguments: '{"env":"prod","password":"hunter2"}' });
    model.next({ type: 'finish', reason: 'tool_calls' });
    model.complete();
    await page.waitForSelector('[data-card="approval"][data-state="pending"]');
    await page.click('[data-card="approval"] [data-action="yes"]');
    await page.waitForSelector('[data-card="tool"][data-status="done"]');
    const cards = page.locator('[data-card="tool"]');
    await expect(cards.count()).resolves.toBe(1);
    await expect(cards.getAttribute('data-outcome')).resolves.toBe('executed');
    await expect(cards.locator('.args').textContent()).resolves.toBe('{"env":"prod","password":"[REDACTED]"}');
    // the tool card is a rendering surface (the approval card shows the operator every argument, by design)
    expect(await cards.textContent()).not.toContain('hunter2');
    await nextRecord(rc.web, (r) => r.event.type === 'turn-end');
  });

  it('a turn stopped while a call streams leaves its card "not run", never streaming', async () => {
    const { page, model } = await streamingConsole();
    model.next(delta('{"env":', true));
    await streamingArgs(page, '{"env":');
    await page.click('#stop');
    await page.waitForSelector('[data-card="tool"][data-status="dropped"]');
    await expect(page.locator('[data-card="tool"] .badge').textContent()).resolves.toBe('not run');
    await expect(page.locator('[data-status="streaming"]').count()).resolves.toBe(0);
  });
});
