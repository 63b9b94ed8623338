import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, DENIED_BY_USER_TEXT, POLICY_DENIAL_TEXT } from '../../src/index.js';
import { consolesPerTest, launchChromium, nextRecord, openConsole, post, root, sendAndAwaitApproval, type RunningConsole } from './helpers.js';

let browser: Browser;
const { cleanups, consoleFor } = consolesPerTest();

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
async function pageFor(rc: RunningConsole): Promise<Page> {
  const page = await openConsole(browser, rc.url);
  cleanups.push(() => page.close());
  return page;
}

const writeCard = '[data-card="tool"][data-call-id="call_write"]';
const finalText = (page: Page) => page.locator('[data-role="final"] .final-text').textContent();

describe('the page shows the turn: a card per slot, approval controls, the final answer', () => {
  it('approve: the write runs, its card closes with outcome, duration, output and receipt, and the answer follows', async () => {
    const rc = await consoleFor();
    const page = await pageFor(rc);
    await sendAndAwaitApproval(page);
    await expect(page.locator('[data-role="user"]').textContent()).resolves.toContain('17.5% of 2,340');
    const calc = page.locator('[data-card="tool"][data-call-id="call_calc"]');
    await expect(calc.getAttribute('data-outcome')).resolves.toBe('executed');
    await expect(calc.locator('.output').textContent()).resolves.toBe('409.5');
    await expect(calc.locator('.duration').textContent()).resolves.toMatch(/^\d+ ms$/);
    await expect(calc.locator('.receipt').textContent()).resolves.toMatch(/^receipt: rtl-receipt-v2-\d+-[\w-]+$/);
    const approval = page.locator('[data-card="approval"]');
    await expect(approval.locator('.summary').textContent()).resolves.toContain('path: notes.md');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(root, 'test-results/console-mid-turn.png') });
    expect(statSync(join(root, 'test-results/console-mid-turn.png')).size).toBeGreaterThan(1000);

    await page.click('[data-card="approval"] [data-action="yes"]');
    await page.waitForSelector(`${writeCard}[data-status="done"]`);
    await expect(page.locator(writeCard).getAttribute('data-outcome')).resolves.toBe('executed');
    await expect(page.locator(`${writeCard} .output`).textContent()).resolves.toMatch(/^Wrote \d+ bytes to notes\.md:/);
    await expect(page.locator(`${writeCard} .receipt`).count()).resolves.toBe(1);
    await expect(approval.getAttribute('data-decision')).resolves.toBe('yes');
    await expect(approval.locator('.decided-by').textContent()).resolves.toBe('Decision: yes, by the operator (web-console).');
    await page.waitForSelector('[data-role="final"]');
    await expect(finalText(page)).resolves.toBe('17.5% of 2,340 is 409.5; both facts are saved in notes.md.');
    await expect(readFile(join(rc.sandbox, 'notes.md'), 'utf8')).resolves.toMatch(/^17\.5% of 2,340 is 409\.5\.\nTokyo: /);
    await page.waitForSelector('body[data-running="false"]');
  });

  it('a card opens as running on tool-call and stays open until its tool-result', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const gate = defineTool({
      name: 'gate',
      description: 'Waits for the test.',
      parameters: z.object({}),
      execute: async () => (await released, 'opened'),
    });
    const rc = await consoleFor({ script: [{ toolCalls: [{ id: 'call_gate', name: 'gate', arguments: {} }] }, { text: 'ok' }], extraTools: [gate] });
    const page = await pageFor(rc);
    await sendAndAwaitApproval(page, 'open the gate');
    await page.click('[data-action="yes"]');
    const card = page.locator('[data-call-id="call_gate"]');
    await page.waitForSelector('[data-call-id="call_gate"][data-status="running"]');
    await expect(card.locator('.badge').textContent()).resolves.toBe('running');
    await expect(card.locator('.output').count()).resolves.toBe(0);
    release();
    await page.waitForSelector('[data-call-id="call_gate"][data-status="done"][data-outcome="executed"]');
    await expect(card.locator('.output').textContent()).resolves.toBe('opened');
  });

  it('deny: the write does not run, its card closes denied with the operator-denial text', async () => {
    const rc = await consoleFor();
    const page = await pageFor(rc);
    await sendAndAwaitApproval(page);
    await page.click('[data-action="no"]');
    await page.waitForSelector(`${writeCard}[data-outcome="denied"]`);
    await expect(page.locator(`${writeCard} .output`).textContent()).resolves.toContain(DENIED_BY_USER_TEXT);
    // the card says the tool never ran (the tool-call event's executes: false), unlike an executed call's
    await expect(page.locator(writeCard).getAttribute('data-executes')).resolves.toBe('false');
    await expect(page.locator('[data-card="tool"][data-executes="true"]').count()).resolves.toBeGreaterThan(0);
    await expect(page.locator('[data-card="approval"]').getAttribute('data-decision')).resolves.toBe('no');
    await page.waitForSelector('[data-role="final"]');
    await expect(finalText(page)).resolves.toContain('I did not save notes.md');
    expect(existsSync(join(rc.sandbox, 'notes.md'))).toBe(false);
  });

  it('always: the first write is approved for the session and the second runs without a prompt', async () => {
    const write = (id: string, path: string) => ({ id, name: 'file_write', arguments: { path, content: path } });
    const rc = await consoleFor({ script: [{ toolCalls: [write('w1', 'a.md'), write('w2', 'b.md')] }, { text: 'Both saved.' }] });
    const page = await pageFor(rc);
    await sendAndAwaitApproval(page, 'save two files');
    await page.click('[data-action="always"]');
    await page.waitForSelector('[data-role="final"]');
    await expect(page.locator('[data-card="approval"]').count()).resolves.toBe(1);
    await expect(page.locator('[data-card="approval"]').getAttribute('data-decision')).resolves.toBe('always');
    await expect(page.locator('[data-call-id="w1"]').getAttribute('data-outcome')).resolves.toBe('executed');
    await expect(page.locator('[data-call-id="w2"]').getAttribute('data-outcome')).resolves.toBe('executed');
    await expect(readFile(join(rc.sandbox, 'b.md'), 'utf8')).resolves.toBe('b.md');
  });

  it('edit and replace: the operator’s text becomes the result, the tool does not run', async () => {
    const rc = await consoleFor();
    const page = await pageFor(rc);
    await sendAndAwaitApproval(page);
    await page.click('[data-action="edit"]');
    await page.fill('[data-card="approval"] textarea.replacement', 'Not now: notes are frozen until Monday.');
    await page.click('[data-action="replace"]');
    await page.waitForSelector(`${writeCard}[data-outcome="replaced"]`);
    await expect(page.locator(`${writeCard} .output`).textContent()).resolves.toBe('Not now: notes are frozen until Monday.');
    await expect(page.locator('[data-card="approval"]').getAttribute('data-decision')).resolves.toBe('replace');
    await page.waitForSelector('[data-role="final"]');
    await expect(finalText(page)).resolves.toContain('the operator answered: Not now: notes are frozen until Monday.');
    expect(existsSync(join(rc.sandbox, 'notes.md'))).toBe(false);
  });
});

describe('tool output is rendered as text, never as HTML', () => {
  it('a tool output containing <script> shows literally and runs nothing', async () => {
    const payload = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"><b>bold?</b>';
    const rc = await consoleFor({
      script: [{ toolCalls: [{ id: 'call_write', name: 'file_write', arguments: { path: 'x.html', content: payload } }] }, { text: 'Saved.' }],
    });
    const page = await pageFor(rc);
    await sendAndAwaitApproval(page, 'save the snippet');
    await page.click('[data-action="yes"]');
    await page.waitForSelector(`${writeCard}[data-status="done"]`);
    await expect(page.locator(`${writeCard} .output`).textContent()).resolves.toBe(`Wrote ${Buffer.byteLength(payload)} bytes to x.html:\n${payload}`);
    await expect(page.locator(`${writeCard} .args`).textContent()).resolves.toContain('<script>window.__xss = 1</script>');
    await expect(page.locator('main script, main img, main b').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).resolves.toBeUndefined();
  });
});

describe('several tabs watch; the first operator decision wins and the others see it', () => {
  it('a decision in one tab closes the controls in the other, and a second decision is refused', async () => {
    const rc = await consoleFor();
    const first = await pageFor(rc);
    const second = await pageFor(rc);
    await sendAndAwaitApproval(first);
    await second.waitForSelector('[data-card="approval"][data-state="pending"]');
    const requestId = await first.locator('[data-card="approval"]').getAttribute('data-request-id');
    await first.click('[data-action="yes"]');
    await second.waitForSelector('[data-card="approval"][data-answered-here="false"]');
    await expect(second.locator('.approval-status').textContent()).resolves.toBe('Approved in another tab');
    await expect(second.locator('[data-action="no"]').isDisabled()).resolves.toBe(true);
    await first.waitForSelector('[data-card="approval"][data-answered-here="true"]');
    const late = await post(rc, `/api/approvals/${requestId}`, { decision: 'no' });
    expect(late.status).toBe(409);
    await second.waitForSelector(`${writeCard}[data-outcome="executed"]`);
    await first.waitForSelector(`${writeCard}[data-outcome="executed"]`);
  });
});

describe('a disconnect or timeout is unanswerable and ends in the policy denial', () => {
  it('closing the only page denies the pending call by policy after the grace period', async () => {
    const rc = await consoleFor({ disconnectGraceMs: 50 });
    const page = await openConsole(browser, rc.url);
    await sendAndAwaitApproval(page);
    const decided = nextRecord(rc.web, (r) => r.event.type === 'approval-decision');
    await page.close();
    const { event } = await decided;
    expect(event).toMatchObject({ decision: 'no', decidedBy: 'policy', byOperator: false });
    await nextRecord(rc.web, (r) => r.event.type === 'turn-end');

    const again = await pageFor(rc);
    await again.waitForSelector('[data-card="approval"][data-reason="disconnect"][data-state="decided"]');
    await expect(again.locator(`${writeCard} .output`).textContent()).resolves.toContain(POLICY_DENIAL_TEXT);
    await expect(again.locator(writeCard).getAttribute('data-outcome')).resolves.toBe('denied');
    expect(existsSync(join(rc.sandbox, 'notes.md'))).toBe(false);
  });

  it('no decision before the timeout denies the call by policy', async () => {
    const rc = await consoleFor({ decisionTimeoutMs: 200 });
    const page = await pageFor(rc);
    await page.click('#send');
    await page.waitForSelector('[data-card="approval"][data-reason="timeout"]');
    await page.waitForSelector(`${writeCard}[data-outcome="denied"]`);
    await expect(page.locator(`${writeCard} .output`).textContent()).resolves.toContain(POLICY_DENIAL_TEXT);
    await expect(page.locator('[data-card="approval"] [data-action="yes"]').isDisabled()).resolves.toBe(true);
  });
});

describe('reconnecting shows the current state with no card lost', () => {
  it('a reload mid-turn keeps the request pending and every card, and the operator can still decide', async () => {
    const rc = await consoleFor();
    const page = await pageFor(rc);
    await sendAndAwaitApproval(page);
    const before = await page.locator('[data-card]').count();
    await page.reload();
    await page.waitForSelector('[data-card="approval"][data-state="pending"]');
    await expect(page.locator('[data-card]').count()).resolves.toBe(before);
    await page.click('[data-action="yes"]');
    await page.waitForSelector('[data-role="final"]');
    await expect(page.locator(writeCard).getAttribute('data-outcome')).resolves.toBe('executed');
  });

  it('a new connection after the turn shows the same cards, outcomes and answer', async () => {
    const rc = await consoleFor();
    const page = await pageFor(rc);
    await sendAndAwaitApproval(page);
    await page.click('[data-action="yes"]');
    await page.waitForSelector('[data-role="final"]');
    const snapshot = (p: Page) =>
      p.$$eval('[data-card]', (cards) => cards.map((c) => [c.getAttribute('data-card'), c.getAttribute('data-call-id'), c.getAttribute('data-outcome') ?? c.getAttribute('data-decision'), c.querySelector('.output, .decided-by')?.textContent]));
    const later = await pageFor(rc);
    await later.waitForSelector('[data-role="final"]');
    expect(await snapshot(later)).toEqual(await snapshot(page));
    expect((await snapshot(later)).map(([kind, id]) => `${kind}:${id ?? ''}`)).toEqual(['tool:call_calc', 'tool:call_time', 'approval:', 'tool:call_write']);
    await expect(finalText(later)).resolves.toBe(await finalText(page));
  });
});

describe('only the session token opens the console', () => {
  it('no token is 401, a wrong token is 403, and the page shows nothing of the session', async () => {
    const rc = await consoleFor();
    const page = await browser.newPage();
    cleanups.push(() => page.close());
    expect((await page.goto(`${rc.base}/`))?.status()).toBe(401);
    expect((await page.goto(`${rc.base}/?token=${'x'.repeat(rc.web.token.length)}`))?.status()).toBe(403);
    await expect(page.locator('#conversation').count()).resolves.toBe(0);
  });
});
