import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/index.js';
import { fakeTool } from '../../src/testing/index.js';
import type { ConsoleSession } from '../../examples/console/console-session.js';
import { consolesPerTest, pendingApproval, launchChromium, sendAndAwaitApproval, type RunningConsole } from './helpers.js';

/** A hostile page, in a real Chromium: markup in everything the console shows, requests from another site or name. */

let browser: Browser;
const { cleanups, consoleFor } = consolesPerTest();
beforeAll(async () => {
  // evil.example resolves to this machine, as a rebinding attacker's name would
  browser = await launchChromium('auto', undefined, ['--host-resolver-rules=MAP evil.example 127.0.0.1']);
});
afterAll(async () => {
  await browser?.close();
});
/** A page (its own context: `bypassCSP` takes the console's CSP away) that records every dialog. */
async function pageFor(url: string, bypassCSP = false): Promise<{ page: Page; dialogs: string[] }> {
  const context = await browser.newContext({ bypassCSP });
  cleanups.push(() => context.close());
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));
  await page.goto(url);
  await page.waitForSelector('#status[data-state="connected"]');
  return { page, dialogs };
}

const P = {
  img: `<img src=x onerror="window.__pwned='img';alert(1)">`,
  script: `<script>window.__pwned='script'</script>`,
  svg: `"><svg onload="window.__pwned='svg'">`,
  js: `javascript:window.__pwned='js'`,
  iframe: `<iframe srcdoc="<script>parent.__pwned='iframe'</script>"></iframe>`,
};
const ALL = Object.values(P).join(' ');

/** Nothing ran, nothing became an element: only text. */
async function expectInert(page: Page, dialogs: string[]): Promise<void> {
  await expect(page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).resolves.toBeUndefined();
  await expect(page.locator('main :is(img, script, svg, iframe, a, object, embed)').count()).resolves.toBe(0);
  expect(dialogs).toEqual([]);
}

/** A turn with markup in every field the page shows: a tool's name, arguments, output, receipt, an approval, the answer, an error. */
function markupRunner(session: () => ConsoleSession) {
  return {
    run: () =>
      new Observable<TurnEvent>((sub) => {
        sub.next({ type: 'text-delta', iteration: 0, text: `${ALL} ` });
        sub.next({ type: 'tool-call', iteration: 0, slot: 0, id: P.svg, name: P.img, args: { html: P.script, attr: P.svg, url: P.js }, executes: true });
        sub.next({ type: 'tool-result', iteration: 0, slot: 0, id: P.svg, name: P.img, output: ALL, success: true, outcome: 'executed', durationMs: 1, receipt: P.svg });
        const req = { requestId: `r"1${P.img}`, toolName: P.img, arguments: { html: P.iframe, url: P.js }, argumentsSummary: P.svg, channel: 'web-console' };
        const answered = session().request(req).subscribe(() => {
          sub.next({ type: 'done', text: ALL, reason: 'final', history: [], iterations: 1, usage: { inputTokens: 0, outputTokens: 0 } });
          sub.error(new Error(P.img));
        });
        return () => answered.unsubscribe();
      }),
  };
}

describe('XSS: tool names, arguments, outputs and answers with markup show as text and run nothing', () => {
  it.each([
    ['under the console’s CSP', false],
    ['with the CSP bypassed (the DOM code alone holds)', true],
  ])('every card field, %s, live and after a reload', async (_label, bypassCSP) => {
    const rc = await consoleFor();
    rc.web.serve(markupRunner(() => rc.web.session));
    const { page, dialogs } = await pageFor(rc.url, bypassCSP);
    await sendAndAwaitApproval(page, P.script);
    await page.click('[data-action="edit"]');
    await page.fill('textarea.replacement', P.img);
    await page.click('[data-action="replace"]');
    await page.waitForSelector('section[data-ended="true"] [data-role="error"]');
    for (const check of [false, true]) {
      if (check) (await page.reload(), await page.waitForSelector('section[data-ended="true"] [data-role="error"]'));
      await expectInert(page, dialogs);
      const text = (selector: string) => page.locator(selector).first().textContent();
      await expect(text('[data-role="user"]')).resolves.toBe(P.script);
      await expect(text('[data-card="tool"] .name')).resolves.toBe(P.img);
      await expect(page.locator('[data-card="tool"]').getAttribute('data-call-id')).resolves.toBe(P.svg);
      await expect(text('[data-card="tool"] .args')).resolves.toBe(JSON.stringify({ html: P.script, attr: P.svg, url: P.js }));
      await expect(text('[data-card="tool"] .output')).resolves.toBe(ALL);
      await expect(text('[data-card="tool"] .receipt')).resolves.toBe(`receipt: ${P.svg}`);
      await expect(text('[data-card="approval"] .name')).resolves.toBe(`Approval: ${P.img}`);
      await expect(text('[data-card="approval"] .summary')).resolves.toBe(P.svg);
      await expect(text('[data-card="approval"] pre.arguments')).resolves.toContain(P.iframe);
      await expect(text('[data-card="approval"] .approval-status')).resolves.toContain(`: ${P.img}`);
      await expect(text('[data-role="final"] .final-text')).resolves.toBe(ALL);
      await expect(text('[data-role="error"]')).resolves.toBe(`Error: ${P.img}`);
    }
  });

  it('through the agent: a model calling an unknown tool named with markup, a tool returning markup', async () => {
    const echo = fakeTool('echo', ALL, { risk: 'read' });
    const rc = await consoleFor({
      script: [{ toolCalls: [{ id: 'c1', name: P.img, arguments: { x: P.svg } }, { id: 'c2', name: 'echo', arguments: { url: P.js } }] }, { text: ALL }],
      extraTools: [echo],
    });
    const { page, dialogs } = await pageFor(rc.url, true);
    await page.click('#send');
    await page.waitForSelector('[data-role="final"]');
    await expectInert(page, dialogs);
    await expect(page.locator('[data-call-id="c1"] .name').textContent()).resolves.toBe(P.img);
    await expect(page.locator('[data-call-id="c2"] .output').textContent()).resolves.toBe(ALL);
    await expect(page.locator('[data-role="final"] .final-text').textContent()).resolves.toBe(ALL);
  });
});

/** The status of every request the console answers from now on, by method and path. */
function statuses(rc: RunningConsole): string[] {
  const seen: string[] = [];
  const track = (req: IncomingMessage, res: ServerResponse): unknown => res.once('finish', () => seen.push(`${req.method} ${req.url?.split('?')[0]} ${res.statusCode}`));
  rc.web.server.on('request', track);
  cleanups.push(async () => rc.web.server.off('request', track));
  return seen;
}

describe('a hostile page that knows the token still cannot decide, start or read', () => {
  it('from another origin: no-cors fetch, a CORS fetch and a form post are all refused', async () => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const evil = createServer((_req, res) => res.end('<!doctype html><title>evil</title><iframe name="sink"></iframe>'));
    evil.listen(0, '127.0.0.1');
    await once(evil, 'listening');
    cleanups.push(() => new Promise((resolve) => evil.close(resolve)));
    const seen = statuses(rc);
    const page = await browser.newPage();
    cleanups.push(() => page.close());
    await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
    const target = `${rc.base}/api/approvals/${encodeURIComponent(requestId)}?token=${rc.web.token}`;
    const results = await page.evaluate(async ({ target, token }) => {
      const outcome = (sent: Promise<Response>) => sent.then((r) => `${r.type} ${r.status}`, (e: Error) => e.name);
      // no-cors: the request is sent, its response withheld (cross-origin-resource-policy); CORS: the preflight fails
      const noCors = await outcome(fetch(target, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"decision":"yes"}' }));
      const cors = await outcome(fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', 'x-console-token': token }, body: '{"decision":"yes"}' }));
      const form = Object.assign(document.createElement('form'), { action: target, method: 'POST', enctype: 'text/plain', target: 'sink' });
      form.append(Object.assign(document.createElement('input'), { name: '{"decision":"yes","x":"', value: '"}' }));
      document.body.append(form);
      const frame = document.querySelector('iframe')!;
      const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
      form.submit();
      await loaded;
      return [noCors, cors];
    }, { target, token: rc.web.token });
    expect(results).toEqual(['TypeError', 'TypeError']);
    expect(seen.sort()).toEqual([`OPTIONS /api/approvals/${encodeURIComponent(requestId)} 405`, ...Array(2).fill(`POST /api/approvals/${encodeURIComponent(requestId)} 403`)]);
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
  });

  it('from a rebound name (evil.example → 127.0.0.1): same-origin to the browser, 421 to the console', async () => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const page = await browser.newPage();
    cleanups.push(() => page.close());
    const port = new URL(rc.base).port;
    expect((await page.goto(`http://evil.example:${port}/?token=${rc.web.token}`))?.status()).toBe(421);
    const got = await page.evaluate(async ({ requestId, token }) => {
      const headers = { 'content-type': 'application/json', 'x-console-token': token };
      const decide = await fetch(`/api/approvals/${encodeURIComponent(requestId)}`, { method: 'POST', headers, body: '{"decision":"yes"}' });
      const start = await fetch('/api/turns', { method: 'POST', headers, body: '{"message":"x"}' });
      const list = await fetch('/api/approvals', { headers });
      return [decide.status, start.status, list.status, await list.text()];
    }, { requestId, token: rc.web.token });
    expect(got.slice(0, 3)).toEqual([421, 421, 421]);
    expect(got[3]).not.toContain(requestId);
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
  });
});
