import { describe, expect, it } from 'vitest';
import { lastValueFrom, Observable, of, type Subscription } from 'rxjs';
import type { TurnEvent } from '../../src/index.js';
import { ConsoleSession, MAX_REPLAY_RECORDS } from '../../examples/console/console-session.js';
import type { WireRecord } from '../../examples/console/wire.js';
import { consolesPerTest, nextRecord, post, type RunningConsole } from './helpers.js';
import { rawExchange, rawRequest, statusLines } from './raw-http.js';

const { cleanups, consoleFor } = consolesPerTest();
const port = (rc: RunningConsole) => new URL(rc.base).port;

describe('the console answers only on the address it listens on (DNS rebinding): any other Host is 421', () => {
  it.each([
    ['another name', (p: string) => `evil.example:${p}`],
    ['a name that starts like localhost', (p: string) => `localhost.evil.example:${p}`],
    ['the bound address on another port', (p: string) => `127.0.0.1:${Number(p) + 1}`],
    ['the bound address without its port', () => '127.0.0.1'],
    ['another loopback address', (p: string) => `127.0.0.2:${p}`],
    ['an empty Host', () => ''],
  ])('%s is refused even with the right token', async (_label, host) => {
    const rc = await consoleFor();
    const headers = { 'x-console-token': rc.web.token, 'content-type': 'application/json' };
    for (const [method, path] of [['GET', '/'], ['GET', '/app.js'], ['GET', '/events'], ['POST', '/api/turns']]) {
      const res = await rawRequest(rc.base, { method, path, host: host(port(rc)), headers, body: method === 'POST' ? '{"message":"x"}' : undefined });
      expect(res.status, `${method} ${path}`).toBe(421);
    }
    expect(rc.web.session.turnRunning).toBe(false);
  });

  it('a request without any Host header is refused', async () => {
    const rc = await consoleFor();
    const { received } = await rawExchange(rc.base, [`GET /app.js?token=${rc.web.token} HTTP/1.0\r\n\r\n`], (r) => /\r\n\r\n/.test(r));
    expect(statusLines(received)).toEqual([421]);
  });

  it('the bound address and localhost (for a loopback bind) are served, in any letter case', async () => {
    const rc = await consoleFor();
    const headers = { 'x-console-token': rc.web.token };
    for (const host of [`127.0.0.1:${port(rc)}`, `localhost:${port(rc)}`, `LocalHost:${port(rc)}`]) {
      expect((await rawRequest(rc.base, { path: '/app.js', host, headers })).status, host).toBe(200);
    }
  });

  it('allowedHosts adds names (a proxy in front); a wrong token stays 403 on an allowed Host', async () => {
    const rc = await consoleFor({ allowedHosts: ['console.internal:443'] });
    const res = await rawRequest(rc.base, { path: '/app.js', host: 'console.internal:443', headers: { 'x-console-token': rc.web.token } });
    expect(res.status).toBe(200);
    const wrong = await rawRequest(rc.base, { path: '/app.js', host: 'console.internal:443', headers: { 'x-console-token': 'A'.repeat(32) } });
    expect(wrong.status).toBe(403);
  });
});

describe('event streams per session are capped: past maxStreams a new one is 429', () => {
  async function openStream(rc: RunningConsole): Promise<{ status: number; close: () => void }> {
    const controller = new AbortController();
    const res = await fetch(`${rc.base}/events?token=${rc.web.token}`, { signal: controller.signal });
    const close = (): void => controller.abort();
    cleanups.push(async () => close());
    if (res.status !== 200) await res.text();
    return { status: res.status, close };
  }

  it('the default cap is 8: the ninth stream is 429 and says why', async () => {
    const rc = await consoleFor();
    const open = [];
    for (let n = 0; n < 8; n++) open.push(await openStream(rc));
    expect(open.map((s) => s.status)).toEqual(Array(8).fill(200));
    const res = await fetch(`${rc.base}/events?token=${rc.web.token}`);
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: 'At most 8 event streams may be open at once.' });
  });

  it('a closed stream frees its place', async () => {
    const rc = await consoleFor({ maxStreams: 2 });
    const [first] = [await openStream(rc), await openStream(rc)];
    expect((await openStream(rc)).status).toBe(429);
    first.close();
    let status = 429;
    for (let attempt = 0; attempt < 500 && status === 429; attempt++) status = (await openStream(rc)).status;
    expect(status).toBe(200);
    expect((await openStream(rc)).status).toBe(429);
  });

  it('refused streams do not count as connected operators nor hold the page back', async () => {
    const rc = await consoleFor({ maxStreams: 1 });
    await openStream(rc);
    for (let n = 0; n < 20; n++) expect((await openStream(rc)).status).toBe(429);
    expect((await fetch(`${rc.base}/app.js?token=${rc.web.token}`)).status).toBe(200);
  });
});

/**
 * A runner whose turn emits `count` text deltas; with `ask`, it first opens an approval request
 * and, once that is answered, emits `count` more and ends. Each delta ends a word, so the
 * console's stream scrubber sends it on at once (one record per delta).
 */
function chattyRunner(session: () => ConsoleSession, count: number, ask = false) {
  return {
    run: () =>
      new Observable<TurnEvent>((subscriber) => {
        const chatter = (from: number): void => {
          for (let i = from; i < from + count; i++) subscriber.next({ type: 'text-delta', iteration: 0, text: `t${i} ` });
        };
        let sub: Subscription | undefined;
        if (ask) {
          const req = { requestId: 'r-open', toolName: 'file_write', arguments: { path: 'a' }, argumentsSummary: 'path: a', channel: 'web-console' };
          sub = session().request(req).subscribe(() => (chatter(count), subscriber.complete()));
        }
        chatter(0);
        if (!ask) subscriber.complete();
        return () => sub?.unsubscribe();
      }),
  };
}

const replay = (session: ConsoleSession): WireRecord[] => {
  const records: WireRecord[] = [];
  session.watch(0, (r) => records.push(r), { operator: false })();
  return records;
};

describe('the replay log keeps a fixed number of records', () => {
  it('by default the latest 1000: a new connection replays those, seq keeps counting', () => {
    const session = new ConsoleSession();
    session.serve(chattyRunner(() => session, 3000));
    expect(session.startTurn('go')).toBe('started');
    const records = replay(session);
    expect(records).toHaveLength(MAX_REPLAY_RECORDS);
    expect(session.lastSeq).toBe(3002);
    expect(records.at(-1)).toMatchObject({ seq: 3002, event: { type: 'turn-end' } });
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 1000 }, (_, i) => 2003 + i));
  });

  it('maxReplayRecords sets the bound; resuming after an evicted seq gets what is kept', () => {
    const session = new ConsoleSession({ maxReplayRecords: 5 });
    session.serve(chattyRunner(() => session, 50));
    session.startTurn('a');
    session.startTurn('b');
    expect(session.replayLength).toBe(5);
    const resumed: WireRecord[] = [];
    session.watch(3, (r) => resumed.push(r), { operator: false })();
    expect(resumed.map((r) => r.seq)).toEqual([100, 101, 102, 103, 104]);
  });

  it('the opening record of a request still waiting for a decision is never dropped', () => {
    const session = new ConsoleSession({ maxReplayRecords: 4 });
    session.serve(chattyRunner(() => session, 40, true));
    session.startTurn('go');
    const records = replay(session);
    expect(records.map((r) => r.event.type)).toEqual(['approval-open', 'text-delta', 'text-delta', 'text-delta']);
    expect(session.approvals.decide('r-open', 'no', 'tab')).toBe('accepted');
    expect(replay(session).map((r) => r.event.type)).toEqual(['text-delta', 'text-delta', 'text-delta', 'turn-end']);
  });

  it('over HTTP, a page connecting late is sent the bounded log', async () => {
    const rc = await consoleFor({ maxReplayRecords: 3, script: [{ text: 'hello' }] });
    const ended = nextRecord(rc.web, (r) => r.event.type === 'turn-end');
    await post(rc, '/api/turns', { message: 'hi' });
    await ended;
    expect(rc.web.session.replayLength).toBe(3);
    expect(await lastValueFrom(of(replay(rc.web.session).map((r) => r.event.type)))).toEqual(['text-delta', 'done', 'turn-end']);
  });
});
