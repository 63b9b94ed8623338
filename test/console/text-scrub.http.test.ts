import { afterEach, describe, expect, it } from 'vitest';
import { scrubCredentials } from '../../src/index.js';
import type { WireRecord } from '../../examples/console/wire.js';
import { leakedWindows } from '../fixtures/secrets-corpus.js';
import { nextRecord, post, startConsole, type RunningConsole } from './helpers.js';
import { splitSecrets, streamedText } from './split-secrets.js';

/** Issue 16, item 4: a secret split across text deltas must not reach the page. */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs one console turn on `rc` and resolves with every record the pages were sent for it. */
async function turnRecords(rc: RunningConsole, message: string): Promise<WireRecord[]> {
  const records: WireRecord[] = [];
  const stop = rc.web.session.watch(rc.web.session.lastSeq, (r) => records.push(r), { operator: false });
  const end = nextRecord(rc.web, (r) => r.event.type === 'turn-end', rc.web.session.lastSeq);
  expect((await post(rc, '/api/turns', { message })).status).toBe(202);
  await end;
  stop();
  return records;
}

const deltaText = (records: readonly WireRecord[]) =>
  records.flatMap((r) => (r.event.type === 'text-delta' ? [r.event.text] : [])).join('');

describe('the console scrubs streamed model text across deltas before sending it', () => {
  const splits = splitSecrets();

  it('the corpus gives enough split shapes for the test to mean something', () => {
    // a secret key's value is redacted at any length, so a cut after `token=ab` is no longer
    // untouched: keyed secrets mostly drop out here, the token shapes stay
    expect(splits.length).toBeGreaterThanOrEqual(30);
    // each piece passes the loop's per-delta scrubbing untouched: joined, they are the secret
    for (const { sample, deltas } of splits) {
      expect(deltas.map(scrubCredentials).join('')).toContain(sample.secret);
    }
  });

  it('no secret split across two deltas appears in any record sent to the page, and the text reads as the scrubbed answer', async () => {
    const pieces = splits.flatMap((s) => s.deltas);
    const rc = await startConsole({ script: [streamedText(pieces)] });
    cleanups.push(() => rc.close());
    const records = await turnRecords(rc, 'show me');
    const sent = JSON.stringify(records);
    for (const { sample } of splits) expect({ name: sample.name, leaked: leakedWindows(sent, sample.secret) }).toEqual({ name: sample.name, leaked: [] });
    const done = records.find((r) => r.event.type === 'done')?.event;
    expect(done).toMatchObject({ type: 'done', reason: 'final' });
    // what the page shows while streaming is what the final card shows
    expect(deltaText(records)).toBe(done?.type === 'done' ? done.text : undefined);
    expect(deltaText(records)).toBe(scrubCredentials(pieces.join('')));
  });

  it('text held back is sent before the next event, in the turn’s order, each iteration scrubbed as one text', async () => {
    const [first, second] = splits;
    const rc = await startConsole({
      script: [
        [...streamedText(first.deltas).slice(0, 2), { type: 'tool-call', id: 'c1', name: 'calculator', arguments: { expression: '1+1' } }, { type: 'finish', reason: 'tool_calls' }],
        streamedText(second.deltas),
      ],
    });
    cleanups.push(() => rc.close());
    const records = await turnRecords(rc, 'go');
    const types = records.map((r) => (r.event.type === 'text-delta' ? `text-delta@${r.event.iteration}` : r.event.type));
    // repeats of one type in a row collapsed: the held text of iteration 1 comes before its call
    expect(types.filter((t, i) => t !== types[i - 1])).toEqual([
      'turn-start', 'iteration', 'text-delta@1', 'tool-call', 'tool-result', 'iteration', 'text-delta@2', 'done', 'turn-end',
    ]);
    const iteration = (n: number) =>
      records.flatMap((r) => (r.event.type === 'text-delta' && r.event.iteration === n ? [r.event.text] : [])).join('');
    expect(iteration(1)).toBe(scrubCredentials(first.deltas.join('')));
    expect(iteration(2)).toBe(scrubCredentials(second.deltas.join('')));
    expect(leakedWindows(JSON.stringify(records), first.sample.secret)).toEqual([]);
    expect(leakedWindows(JSON.stringify(records), second.sample.secret)).toEqual([]);
  });
});
