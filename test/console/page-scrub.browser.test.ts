import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeTool } from '../../src/testing/index.js';
import { leakedWindows } from '../fixtures/secrets-corpus.js';
import { tokenShapedToolNames } from '../fixtures/token-tool-names.js';
import { launchChromium, openConsole, sendAndAwaitApproval, startConsole } from './helpers.js';
import { splitSecrets, streamedText } from './split-secrets.js';

/**
 * Issue 16, item 4: what the page renders never holds a secret split across text deltas, nor a
 * tool name shaped like a token on the approval card.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('the page renders streamed model text scrubbed across deltas', () => {
  it('a secret streamed in two deltas shows as [REDACTED] in the assistant bubble, and nowhere on the page', async () => {
    const splits = splitSecrets();
    const first = streamedText(splits.flatMap((s) => s.deltas)).slice(0, -1);
    const rc = await startConsole({
      script: [
        [...first, { type: 'tool-call', id: 'c1', name: 'calculator', arguments: { expression: '2+2' } }, { type: 'finish', reason: 'tool_calls' }],
        { text: 'Done.' },
      ],
    });
    const page = await openConsole(browser, rc.url);
    try {
      await page.fill('#message', 'show me');
      await page.click('#send');
      await page.waitForSelector('[data-role="final"]');
      const bubble = (await page.locator('[data-role="assistant"][data-iteration="1"]').textContent()) ?? '';
      expect(bubble.match(/\[REDACTED\]/g)?.length).toBeGreaterThanOrEqual(splits.length);
      const shown = (await page.evaluate(() => document.body.textContent)) ?? '';
      for (const { sample } of splits) {
        expect({ name: sample.name, leaked: leakedWindows(shown, sample.secret) }).toEqual({ name: sample.name, leaked: [] });
      }
    } finally {
      await page.close();
      await rc.close();
    }
  });
});

describe('the approval card shows a token-shaped tool name scrubbed', () => {
  it('the card, its decision line and the tool card say [REDACTED]; no piece of the name is on the page', async () => {
    const [name] = tokenShapedToolNames().filter((n) => n.startsWith('ghp_'));
    const rc = await startConsole({
      script: [{ toolCalls: [{ id: 'call_tok', name, arguments: { path: 'x' } }] }, { text: 'ok' }],
      extraTools: [fakeTool(name, 'ran')],
    });
    const page = await openConsole(browser, rc.url);
    try {
      await sendAndAwaitApproval(page, 'go');
      await expect(page.locator('[data-card="approval"] .name').textContent()).resolves.toBe('Approval: [REDACTED]');
      expect(leakedWindows((await page.evaluate(() => document.body.textContent)) ?? '', name)).toEqual([]);
      await page.click('[data-card="approval"] [data-action="yes"]');
      await page.waitForSelector('[data-role="final"]');
      expect(leakedWindows((await page.evaluate(() => document.body.textContent)) ?? '', name)).toEqual([]);
    } finally {
      await page.close();
      await rc.close();
    }
  });
});
