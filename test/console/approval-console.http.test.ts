import { describe, expect, it } from 'vitest';
import { firstValueFrom } from 'rxjs';
import { ConfigurationError } from '../../src/index.js';
import { createApprovalConsole } from '../../examples/console/approval-console.js';
import type { WireRecord } from '../../examples/console/wire.js';
import { consolesPerTest, pendingApproval, nextRecord, post, type RunningConsole } from './helpers.js';
import { leaksOf } from '../fixtures/leak-search.js';

const { cleanups, consoleFor } = consolesPerTest();
/** Reads the event stream until `count` records arrived, then closes it. */
async function readRecords(rc: RunningConsole, count: number, headers: Record<string, string> = {}): Promise<WireRecord[]> {
  const controller = new AbortController();
  const res = await fetch(`${rc.base}/events?token=${rc.web.token}`, { headers, signal: controller.signal });
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const records: WireRecord[] = [];
  let buffer = '';
  while (records.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop() ?? '';
    for (const block of blocks) {
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data) records.push(JSON.parse(data) as WireRecord);
    }
  }
  controller.abort();
  return records.slice(0, count);
}

describe('the console binds 127.0.0.1 and sends a strict CSP', () => {
  it('listens on the loopback address by default and serves the page with security headers', async () => {
    const rc = await consoleFor();
    expect(new URL(rc.url).hostname).toBe('127.0.0.1');
    const res = await fetch(rc.url);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).toContain(`/app.js?token=${rc.web.token}`);
  });
});

describe('every request needs the session token', () => {
  const routes: [string, string][] = [
    ['GET', '/'],
    ['GET', '/app.js'],
    ['GET', '/cards.js'],
    ['GET', '/style.css'],
    ['GET', '/events'],
    ['GET', '/api/approvals'],
    ['POST', '/api/turns'],
    ['POST', '/api/turns/cancel'],
    ['POST', '/api/approvals/anything'],
  ];
  it.each(routes)('%s %s: no token is 401, a wrong token is 403', async (method, path) => {
    const rc = await consoleFor();
    const body = method === 'POST' ? JSON.stringify({ message: 'x', decision: 'yes' }) : undefined;
    const headers = { 'content-type': 'application/json' };
    expect((await fetch(`${rc.base}${path}`, { method, body, headers })).status).toBe(401);
    const wrong = `${'A'.repeat(rc.web.token.length)}`;
    expect((await fetch(`${rc.base}${path}${path.includes('?') ? '&' : '?'}token=${wrong}`, { method, body, headers })).status).toBe(403);
    expect((await fetch(`${rc.base}${path}`, { method, body, headers: { ...headers, 'x-console-token': wrong } })).status).toBe(403);
  });

  it('the token is accepted in the query, the x-console-token header or as a bearer token', async () => {
    const rc = await consoleFor();
    expect((await fetch(`${rc.base}/app.js?token=${rc.web.token}`)).status).toBe(200);
    expect((await fetch(`${rc.base}/app.js`, { headers: { 'x-console-token': rc.web.token } })).status).toBe(200);
    expect((await fetch(`${rc.base}/app.js`, { headers: { authorization: `Bearer ${rc.web.token}` } })).status).toBe(200);
  });

  it('each console gets its own random token, and a malformed one is a ConfigurationError', () => {
    expect(createApprovalConsole().token).not.toBe(createApprovalConsole().token);
    expect(createApprovalConsole().token).toMatch(/^[\w-]{32}$/);
    expect(() => createApprovalConsole({ token: 'short' })).toThrow(ConfigurationError);
  });
});

describe('decisions are accepted only for pending request ids of the current turn', () => {
  it('an unknown request id is 404 and changes nothing', async () => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const res = await post(rc, '/api/approvals/not-a-request', { decision: 'yes' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'No approval request with this id is pending in this turn.' });
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
  });

  it('a second decision for the same request is 409; the first one stands', async () => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const decided = nextRecord(rc.web, (r) => r.event.type === 'approval-decision');
    expect((await post(rc, `/api/approvals/${requestId}`, { decision: 'no' })).status).toBe(200);
    expect((await post(rc, `/api/approvals/${requestId}`, { decision: 'yes' })).status).toBe(409);
    expect((await decided).event).toMatchObject({ decision: 'no', byOperator: true });
  });

  it('a request id of an earlier turn is 404 once a new turn started', async () => {
    const rc = await consoleFor();
    const old = await pendingApproval(rc);
    const ended = nextRecord(rc.web, (r) => r.event.type === 'turn-end');
    await post(rc, `/api/approvals/${old}`, { decision: 'no' });
    await ended;
    const current = await pendingApproval(rc);
    expect(current).not.toBe(old);
    expect((await post(rc, `/api/approvals/${old}`, { decision: 'yes' })).status).toBe(404);
  });

  it('malformed decisions are 400, other content types 415, cross-origin posts 403, huge bodies 413', async () => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const path = `/api/approvals/${requestId}`;
    expect((await post(rc, path, { decision: 'maybe' })).status).toBe(400);
    expect((await post(rc, path, { decision: 'replace' })).status).toBe(400);
    expect((await post(rc, path, ['yes'])).status).toBe(400);
    const headers = { 'x-console-token': rc.web.token };
    expect((await fetch(`${rc.base}${path}`, { method: 'POST', headers, body: 'decision=yes' })).status).toBe(415);
    const cross = { ...headers, 'content-type': 'application/json', origin: 'http://evil.example' };
    expect((await fetch(`${rc.base}${path}`, { method: 'POST', headers: cross, body: '{"decision":"yes"}' })).status).toBe(403);
    expect((await post(rc, path, { decision: 'replace', replaceWith: 'x'.repeat(300 * 1024) })).status).toBe(413);
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
  });
});

describe('turns are started and cancelled from the page', () => {
  it('a second turn while one runs is 409; an empty message is 400', async () => {
    const rc = await consoleFor();
    await pendingApproval(rc);
    expect((await post(rc, '/api/turns', { message: 'another' })).status).toBe(409);
    expect((await post(rc, '/api/turns', { message: '  ' })).status).toBe(400);
  });

  it('cancelling withdraws the pending request and the turn ends cancelled', async () => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const withdrawn = nextRecord(rc.web, (r) => r.event.type === 'approval-unanswered');
    const done = nextRecord(rc.web, (r) => r.event.type === 'done');
    expect((await post(rc, '/api/turns/cancel', {})).status).toBe(202);
    expect((await withdrawn).event).toEqual({ type: 'approval-unanswered', requestId, reason: 'cancelled' });
    expect((await done).event).toMatchObject({ type: 'done', reason: 'cancelled' });
    expect(rc.web.session.approvals.ids).toEqual([]);
    expect((await post(rc, '/api/turns/cancel', {})).status).toBe(409);
  });
});

describe('the event stream replays the session to every connection', () => {
  it('a new connection gets every record from the start; Last-Event-ID resumes after it', async () => {
    const rc = await consoleFor();
    await pendingApproval(rc);
    const all = await readRecords(rc, 6);
    expect(all.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(all[0].event).toEqual({ type: 'turn-start', message: 'save it' });
    const resumed = await readRecords(rc, 2, { 'last-event-id': '4' });
    expect(resumed.map((r) => r.seq)).toEqual([5, 6]);
    expect(resumed).toEqual(all.slice(4));
  });

  it('the done event leaves its history on the server and tool-call arguments are scrubbed', async () => {
    const rc = await consoleFor({
      script: [
        { toolCalls: [{ id: 'c1', name: 'calculator', arguments: { expression: '1+1', api_key: 'sk-abcdefghijklmnopqrstuvwx' } }] },
        { text: 'two' },
      ],
    });
    const done = nextRecord(rc.web, (r) => r.event.type === 'done');
    await post(rc, '/api/turns', { message: 'add' });
    expect((await done).event).toMatchObject({ type: 'done', text: 'two', historyLength: 4 });
    expect((await done).event).not.toHaveProperty('history');
    const call = await nextRecord(rc.web, (r) => r.event.type === 'tool-call');
    expect(leaksOf(call.event, 'sk-abcdefghijklmnopqrstuvwx')).toEqual([]);
  });
});

describe('the console as a backchannel front door', () => {
  it('a request whose subscriber unsubscribes is withdrawn and releases its timer', async () => {
    const web = createApprovalConsole({ decisionTimeoutMs: 60_000 });
    cleanups.push(() => web.close());
    const req = { requestId: 'r1', toolName: 'file_write', arguments: {}, argumentsSummary: 'x', channel: 'web-console' };
    const sub = web.request(req, new AbortController().signal).subscribe();
    expect(web.session.approvals.ids).toEqual(['r1']);
    sub.unsubscribe();
    expect(web.session.approvals.ids).toEqual([]);
    expect(web.session.approvals.decide('r1', 'yes', 'tab')).toBe('already-decided');
  });

  it('an aborted signal or a duplicate id is unanswerable at once', async () => {
    const web = createApprovalConsole();
    cleanups.push(() => web.close());
    const req = { requestId: 'r2', toolName: 'file_write', arguments: {}, argumentsSummary: 'x', channel: 'web-console' };
    await expect(firstValueFrom(web.request(req, AbortSignal.abort()))).resolves.toBeNull();
    const first = web.request(req, new AbortController().signal).subscribe();
    cleanups.push(async () => first.unsubscribe());
    await expect(firstValueFrom(web.request(req, new AbortController().signal))).resolves.toBeNull();
  });
});

describe("an operator's Always lasts the console session, not one turn", () => {
  it('after Always, the next turn of the session writes without a request; a new session asks again', async () => {
    const rc = await consoleFor();
    const first = await pendingApproval(rc);
    const ended = nextRecord(rc.web, (r) => r.event.type === 'turn-end', rc.web.session.lastSeq);
    expect((await post(rc, `/api/approvals/${first}`, { decision: 'always' })).status).toBe(200);
    await ended;
    const since = rc.web.session.lastSeq;
    const secondEnd = nextRecord(rc.web, (r) => r.event.type === 'turn-end', since);
    expect((await post(rc, '/api/turns', { message: 'save it again' })).status).toBe(202);
    await secondEnd;
    const second = (rc.web.session as unknown as { log: WireRecord[] }).log.filter((r) => r.seq > since).map((r) => r.event);
    expect(second.filter((e) => e.type === 'approval-open')).toEqual([]);
    expect(second.filter((e) => e.type === 'tool-result' && e.name === 'file_write').map((e) => (e as { outcome: string }).outcome)).toEqual(['executed']);
    // another console session is another conversation: it is asked again
    const other = await consoleFor();
    expect(other.web.session.conversationId).not.toBe(rc.web.session.conversationId);
    expect(await pendingApproval(other)).toEqual(expect.any(String));
  });
});
