import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../durable/test-database.js';
import { collect, openConsoleInstance, openInstance, parkInChild, type ConsoleInstance, type Instance } from './durable-consoles.js';
import { launchChromium, openConsole } from './helpers.js';

let db: TestDatabase;
let browser: Browser;
beforeAll(async () => {
  [db, browser] = await Promise.all([openTestDatabase(), launchChromium()]);
}, 120_000); // PGlite (a machine without the server) compiles its WebAssembly first
afterAll(async () => {
  await browser?.close();
  await db?.close();
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const later = <T extends { close(): Promise<unknown> }>(value: T): T => (cleanups.push(() => value.close()), value);
const pageOn = async (rc: ConsoleInstance): Promise<Page> => later(await openConsole(browser, rc.url));

const turn = (turnId: string) => `section[data-turn-id="${turnId}"]`;

describe('the page of a console on instance B shows and decides a turn parked on instance A', () => {
  it('a turn parked by a separate process: B’s page shows its cards, approves it, and follows A’s resumption to the answer', async () => {
    const b = later(await openConsoleInstance(db, { decidedBy: 'bob' }));
    const other = later(await openConsoleInstance(db, { decidedBy: 'alice' }));
    const page = await pageOn(b);
    const watching = await pageOn(other);
    const turnId = await parkInChild(db, 'note this', 'page-1');
    const a: Instance = later(await openInstance(db));

    const section = turn(turnId);
    await page.waitForSelector(`${section} [data-card="approval"][data-state="pending"]`);
    await expect(page.locator(`${section} [data-role="user"]`).textContent()).resolves.toBe('note this');
    await expect(page.locator(`${section} [data-call-id="c1"]`).getAttribute('data-outcome')).resolves.toBe('executed');
    await expect(page.locator(`${section} [data-call-id="c1"] .output`).textContent()).resolves.toBe('value of a');
    await expect(page.locator(`${section} [data-role="parked"]`).count()).resolves.toBe(1);
    const card = page.locator(`${section} [data-card="approval"]`);
    await expect(card.locator('.summary').textContent()).resolves.toBe('text: hello');
    await expect(card.locator('.arguments').textContent()).resolves.toBe('text: hello');
    await expect(card.locator('.approval-status').textContent()).resolves.toBe('The turn is parked until someone decides.');
    await expect(card.getAttribute('data-turn-id')).resolves.toBe(turnId);
    await watching.waitForSelector(`${section} [data-card="approval"][data-state="pending"]`);

    await page.click(`${section} [data-card="approval"] [data-action="yes"]`);
    await page.waitForSelector(`${section} [data-card="approval"][data-answered-here="true"]`);
    await expect(card.locator('.approval-status').textContent()).resolves.toBe('Approved in this tab');
    // the page of the other instance's console: decided elsewhere, its controls closed
    await watching.waitForSelector(`${section} [data-card="approval"][data-answered-here="false"]`);
    await expect(watching.locator(`${section} .approval-status`).textContent()).resolves.toBe('Approved elsewhere (by bob)');
    await expect(watching.locator(`${section} [data-action="no"]`).isDisabled()).resolves.toBe(true);

    // instance A goes on with the turn; both pages follow it from the store to its end
    expect((await collect(a.durable.continue(turnId))).at(-1)).toMatchObject({ type: 'done', reason: 'final', text: 'noted' });
    for (const p of [page, watching]) {
      await p.waitForSelector(`${section}[data-ended="true"]`);
      await expect(p.locator(`${section} [data-role="final"] .final-text`).textContent()).resolves.toBe('noted');
      await expect(p.locator(`${section} [data-call-id="c3"] .output`).textContent()).resolves.toBe('wrote hello (approved=true)');
      await expect(p.locator(`${section} [data-card="approval"]`).getAttribute('data-decision')).resolves.toBe('yes');
      await expect(p.locator(`${section} [data-card="approval"] .decided-by`).textContent()).resolves.toBe('Decision: yes, by the operator (bob).');
    }
  }, 60_000); // a child process starts tsx first

  it('a turn started from B’s page parks in the store; a reload replays it; A continues it after B’s Deny', async () => {
    const b = later(await openConsoleInstance(db));
    const a: Instance = later(await openInstance(db));
    const page = await pageOn(b);
    await page.fill('#message', 'note from the page');
    await page.click('#send');
    await page.waitForSelector('[data-card="approval"][data-state="pending"]');
    const turnId = (await page.locator('section[data-turn-id]').last().getAttribute('data-turn-id'))!;
    expect(await a.store.getTurn(turnId)).toMatchObject({ status: 'parked', conversationId: expect.stringMatching(/^web-console-/) });
    await page.waitForSelector('body[data-running="false"]');

    await page.reload();
    await page.waitForSelector(`${turn(turnId)} [data-card="approval"][data-state="pending"]`);
    await page.click(`${turn(turnId)} [data-action="no"]`);
    await page.waitForSelector(`${turn(turnId)} [data-card="approval"][data-answered-here="true"]`);
    await collect(a.durable.continue(turnId));
    await page.waitForSelector(`${turn(turnId)}[data-ended="true"]`);
    await expect(page.locator(`${turn(turnId)} [data-call-id="c3"]`).getAttribute('data-outcome')).resolves.toBe('denied');
    await expect(page.locator(`${turn(turnId)} [data-card="approval"]`).getAttribute('data-decision')).resolves.toBe('no');
  });
});
