import { Agent, request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { consolesPerTest, pendingApproval, post, type RunningConsole } from './helpers.js';
import { rawExchange, statusLines } from './raw-http.js';

const { cleanups, consoleFor } = consolesPerTest();
describe('a malformed % escape in a request id is 400 (not 500), and changes nothing', () => {
  it.each([
    ['a lone %', '%'],
    ['% before non-hex digits', '%zz'],
    ['a cut UTF-8 sequence', '%E0%A4%A'],
    ['an overlong UTF-8 encoding', '%C0%80'],
    ['an encoded lone surrogate', '%ED%A0%80'],
    ['a valid prefix, then a bad escape', 'req-1%2'],
  ])('%s (%s)', async (_label, id) => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const res = await post(rc, `/api/approvals/${id}`, { decision: 'yes' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'The request id has a malformed % escape.' });
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
    expect((await post(rc, `/api/approvals/${encodeURIComponent(requestId)}`, { decision: 'no' })).status).toBe(200);
  });

  it('a request target that is not a URL path is 400 too', async () => {
    const rc = await consoleFor();
    const host = new URL(rc.base).host;
    const { received } = await rawExchange(rc.base, [`GET // HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`], () => false);
    expect(statusLines(received)).toEqual([400]);
  });
});

describe('a 413 does not stall a keep-alive connection: the rest of the body is drained, the next request is served', () => {
  const request = (rc: RunningConsole, head: string, body: string | Buffer) => {
    const host = new URL(rc.base).host;
    return `${head}\r\nHost: ${host}\r\nx-console-token: ${rc.web.token}\r\ncontent-type: application/json\r\n${body}`;
  };
  const appJs = (rc: RunningConsole) => `GET /app.js HTTP/1.1\r\nHost: ${new URL(rc.base).host}\r\nx-console-token: ${rc.web.token}\r\n\r\n`;
  const twoResponses = (received: string) => statusLines(received).length >= 2;

  it('a Content-Length body over the limit: 413, then the next request on the same connection is 200', async () => {
    const rc = await consoleFor();
    const body = JSON.stringify({ message: 'x'.repeat(400 * 1024) });
    const first = request(rc, 'POST /api/turns HTTP/1.1', `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const { received, closed } = await rawExchange(rc.base, [first, appJs(rc)], twoResponses);
    expect(closed).toBe(false);
    expect(statusLines(received)).toEqual([413, 200]);
    expect(rc.web.session.turnRunning).toBe(false);
  });

  it('a chunked body over the limit, sent in many chunks: 413, then 200', async () => {
    const rc = await consoleFor();
    const chunk = 'y'.repeat(16 * 1024);
    const chunks = Array.from({ length: 20 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const first = request(rc, 'POST /api/turns/cancel HTTP/1.1', 'transfer-encoding: chunked\r\n\r\n');
    const { received, closed } = await rawExchange(rc.base, [first, ...chunks, '0\r\n\r\n', appJs(rc)], twoResponses);
    expect(closed).toBe(false);
    expect(statusLines(received)).toEqual([413, 200]);
  });

  it('a decision body over the limit through a keep-alive agent: the same socket serves the next decision', async () => {
    const rc = await consoleFor();
    const requestId = await pendingApproval(rc);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(async () => agent.destroy());
    const send = (body: string) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const { hostname, port } = new URL(rc.base);
        const req = httpRequest(
          {
            hostname,
            port,
            agent,
            method: 'POST',
            path: `/api/approvals/${requestId}`,
            headers: { 'content-type': 'application/json', 'x-console-token': rc.web.token },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await send(JSON.stringify({ decision: 'replace', replaceWith: 'z'.repeat(300 * 1024) }))).toEqual({ status: 413, reused: false });
    expect(await send(JSON.stringify({ decision: 'no' }))).toEqual({ status: 200, reused: true });
    expect(rc.web.session.approvals.ids).toEqual([]);
  });

  it('a body far past the limit is not drained for ever: the connection is closed', async () => {
    const rc = await consoleFor();
    const block = Buffer.alloc(256 * 1024, 0x61);
    const first = request(rc, 'POST /api/turns HTTP/1.1', `content-length: ${50 * 1024 * 1024}\r\n\r\n`);
    const { received, closed } = await rawExchange(rc.base, [first, ...Array.from({ length: 16 }, () => block)], () => false);
    expect(closed).toBe(true);
    expect(statusLines(received).every((s) => s === 413)).toBe(true);
  });
});
