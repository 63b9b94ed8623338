import { describe, expect, it } from 'vitest';
import { boundHosts } from '../../examples/console/http-util.js';
import { consolesPerTest, pendingApproval, post, type RunningConsole } from './helpers.js';
import { floodBody, rawRequest, statusLines } from './raw-http.js';

/** Requests a hostile page or network peer sends: another Host, another site, a 100 MB body. */

const { consoleFor } = consolesPerTest();
const hostOf = (rc: RunningConsole) => new URL(rc.base).host;

describe('DNS rebinding: a Host the console does not listen as is refused, whatever else the request has', () => {
  it.each([
    ['evil.example', () => 'evil.example'],
    ['evil.example on the port', (p: string) => `evil.example:${p}`],
    ['a trailing-dot localhost', (p: string) => `localhost.:${p}`],
    ['a userinfo trick', (p: string) => `127.0.0.1:${p}@evil.example`],
    ['[::1] on a 127.0.0.1 bind', (p: string) => `[::1]:${p}`],
  ])('%s: 421 for a page, a decision and a new turn', async (_label, host) => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const h = host(new URL(rc.base).port);
    const headers = { 'x-console-token': rc.web.token, 'content-type': 'application/json' };
    expect((await rawRequest(rc.base, { path: '/', host: h, headers })).status).toBe(421);
    const decide = await rawRequest(rc.base, { method: 'POST', path: `/api/approvals/${requestId}`, host: h, headers, body: '{"decision":"yes"}' });
    expect(decide.status).toBe(421);
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
  });

  it('a console on [::1] answers to [::1] and localhost on its port, and nothing else', async () => {
    const rc = await consoleFor({ host: '::1' });
    const port = new URL(rc.base).port;
    const get = (host: string) => rawRequest(rc.base, { path: '/app.js', host, headers: { 'x-console-token': rc.web.token } });
    expect((await get(`[::1]:${port}`)).status).toBe(200);
    expect((await get(`localhost:${port}`)).status).toBe(200);
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port}`, `[::1]:${Number(port) + 1}`]) expect((await get(host)).status, host).toBe(421);
  });

  it('a wildcard bind answers to the loopback names and configured hosts, not to any name', () => {
    expect([...boundHosts('0.0.0.0', 80)].sort()).toEqual(['0.0.0.0:80', '127.0.0.1:80', 'localhost:80']);
    expect(boundHosts('::', 80, ['Console.LAN:80']).has('console.lan:80')).toBe(true);
    expect(boundHosts('::', 80).has('[::1]:80')).toBe(true);
    expect(boundHosts('0.0.0.0', 80).has('evil.example:80')).toBe(false);
  });
});

describe('CSRF: another site cannot decide an approval nor start a turn, even knowing the token', () => {
  const json = (rc: RunningConsole, more: Record<string, string>) => ({ 'x-console-token': rc.web.token, 'content-type': 'application/json', ...more });
  const send = (rc: RunningConsole, path: string, headers: Record<string, string>, body: string) =>
    rawRequest(rc.base, { method: 'POST', path, host: hostOf(rc), headers, body });

  it.each([
    ['Origin: https://evil.example', { origin: 'https://evil.example' }],
    ['Origin: null (a sandboxed frame, a data: page)', { origin: 'null' }],
    ['the console on another port as Origin', { origin: 'http://127.0.0.1:1' }],
    ['no Origin, Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['no Origin, Sec-Fetch-Site: same-site (another port of localhost)', { 'sec-fetch-site': 'same-site' }],
    ['its own Origin but Sec-Fetch-Site: cross-site', { origin: 'SELF', 'sec-fetch-site': 'cross-site' }],
  ])('%s: 403, the approval still pending, no turn started', async (_label, more) => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const headers = json(rc, Object.fromEntries(Object.entries(more).map(([k, v]) => [k, v === 'SELF' ? rc.base : v])));
    expect((await send(rc, `/api/approvals/${requestId}`, headers, '{"decision":"yes"}')).status).toBe(403);
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
    expect((await send(rc, '/api/turns/cancel', headers, '{}')).status).toBe(403);
    expect(rc.web.session.turnRunning).toBe(true);
  });

  it.each([
    ['application/x-www-form-urlencoded', 'decision=yes'],
    ['text/plain', '{"decision":"yes"}'],
    ['multipart/form-data; boundary=x', '--x\r\ncontent-disposition: form-data; name="decision"\r\n\r\nyes\r\n--x--'],
    ['text/plain; x=application/json', '{"decision":"yes"}'],
  ])('a form body (%s), token in the query, is 415 and decides nothing', async (type, body) => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const path = `/api/approvals/${requestId}?token=${rc.web.token}`;
    expect((await send(rc, path, { 'content-type': type }, body)).status).toBe(415);
    expect((await send(rc, `/api/turns?token=${rc.web.token}`, { 'content-type': type }, body)).status).toBe(415);
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
  });

  it('without the token (never a cookie) a cross-site request is 401 before anything else', async () => {
    const rc = await consoleFor();
    const shapes: Record<string, string>[] = [{ cookie: `token=${rc.web.token}` }, { 'content-type': 'text/plain', origin: 'https://evil.example' }, {}];
    for (const headers of shapes) {
      expect((await send(rc, '/api/turns', headers, '{"message":"x"}')).status).toBe(401);
    }
    expect(rc.web.session.turnRunning).toBe(false);
  });

  it('the page itself (its Origin, Sec-Fetch-Site same-origin or none) and a non-browser client are served', async () => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const self = json(rc, { origin: rc.base, 'sec-fetch-site': 'same-origin' });
    expect((await send(rc, '/api/turns', json(rc, { 'sec-fetch-site': 'none' }), '{"message":"x"}')).status).toBe(409);
    expect((await send(rc, `/api/approvals/${requestId}`, self, '{"decision":"no"}')).status).toBe(200);
  });
});

describe('a 100 MB body is refused at its headers and never read to the end; the server stays up', () => {
  const MB100 = 100 * 1024 * 1024;
  const head = (rc: RunningConsole, path: string, headers: string, host = hostOf(rc)) =>
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\n${headers}`;

  it.each([
    ['no token: 401', 401, (rc: RunningConsole) => head(rc, '/api/turns', 'content-type: application/json\r\n')],
    ['another Host: 421', 421, (rc: RunningConsole) => head(rc, '/api/turns', `x-console-token: ${rc.web.token}\r\n`, 'evil.example')],
    ['a form type: 415', 415, (rc: RunningConsole) => head(rc, '/api/turns', `x-console-token: ${rc.web.token}\r\ncontent-type: text/plain\r\n`)],
    ['another site: 403', 403, (rc: RunningConsole) => head(rc, '/api/turns', `x-console-token: ${rc.web.token}\r\nsec-fetch-site: cross-site\r\n`)],
    ['too large: 413', 413, (rc: RunningConsole) => head(rc, '/api/turns', `x-console-token: ${rc.web.token}\r\ncontent-type: application/json\r\n`)],
    ['a GET with a body: 200', 200, (rc: RunningConsole) => head(rc, '/app.js', `x-console-token: ${rc.web.token}\r\n`).replace('POST', 'GET')],
  ])('%s, and the connection is closed long before 100 MB', async (_label, status, request) => {
    for (const chunked of [false, true]) {
      const rc = await consoleFor();
      const length = chunked ? 'transfer-encoding: chunked' : `content-length: ${MB100}`;
      const { received, written, closed } = await floodBody(rc.base, `${request(rc)}${length}\r\n\r\n`, MB100, chunked);
      expect({ chunked, closed }).toEqual({ chunked, closed: true });
      expect(written).toBeLessThan(MB100 / 4);
      expect(statusLines(received)).toEqual([status]);
      expect((await fetch(`${rc.base}/app.js?token=${rc.web.token}`)).status).toBe(200);
      expect(rc.web.session.turnRunning).toBe(false);
    }
  });

  it('a decision with a 100 MB replacement is 413 and leaves the request pending', async () => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const request = head(rc, `/api/approvals/${requestId}`, `x-console-token: ${rc.web.token}\r\ncontent-type: application/json\r\n`);
    const { received, closed } = await floodBody(rc.base, `${request}content-length: ${MB100}\r\n\r\n{"decision":"replace","replaceWith":"`, MB100);
    expect(closed).toBe(true);
    expect(statusLines(received)).toEqual([413]);
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
    expect((await post(rc, `/api/approvals/${requestId}`, { decision: 'no' })).status).toBe(200);
  });
});
