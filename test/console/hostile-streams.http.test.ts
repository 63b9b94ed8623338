import { once } from 'node:events';
import { Agent, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { createApprovalConsole } from '../../examples/console/approval-console.js';
import { consolesPerTest, type RunningConsole } from './helpers.js';

/** Event-stream floods and slow clients: the console stays bounded and leaks nothing. */

const { cleanups, consoleFor } = consolesPerTest();
/** A promise of the 'close' of every response the server sends from now on (until the test ends). */
function trackResponses(server: Server): Promise<unknown>[] {
  const closed: Promise<unknown>[] = [];
  const track = (_req: IncomingMessage, res: ServerResponse): number => closed.push(once(res, 'close'));
  server.on('request', track);
  cleanups.push(async () => server.off('request', track));
  return closed;
}

/** What a flood could leak: process and server listeners, the session's operators, open streams. */
const footprint = (rc: RunningConsole) => ({
  process: Object.fromEntries(process.eventNames().map((e) => [String(e), process.listenerCount(e)])),
  server: Object.fromEntries(['request', 'connection', 'close', 'error'].map((e) => [e, rc.web.server.listenerCount(e)])),
  operators: rc.web.session.operators,
  streams: rc.web.openStreams,
});

/** `GET /events` through `agent` (default: a connection of its own); resolves at the response's headers (a refusal's body read and dropped). */
function getEvents(rc: RunningConsole, options: { agent?: Agent; lastEventId?: number } = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers = { 'x-console-token': rc.web.token, ...(options.lastEventId === undefined ? {} : { 'last-event-id': String(options.lastEventId) }) };
    const req = get(`${rc.base}/events`, { agent: options.agent ?? false, headers }, (res) => {
      res.on('error', () => undefined);
      if (res.statusCode !== 200) res.resume();
      resolve(res);
    });
    req.on('error', reject);
  });
}

/** Reads a stream until `until(text)` or its end; resolves with the ids of its complete events. */
function readEvents(res: IncomingMessage, until: (text: string) => boolean = () => false): Promise<number[]> {
  return new Promise((resolve) => {
    let text = '';
    const ids = (): number[] => text.split('\n\n').slice(0, -1).flatMap((block) => /^id: (\d+)$/m.exec(block)?.slice(1).map(Number) ?? []);
    const done = (): void => resolve(ids());
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => ((text += chunk), until(text) && (res.destroy(), done())));
    res.once('close', done);
  });
}

const delta = (text: string) => ({ type: 'text-delta' as const, iteration: 0, text });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('SSE floods: streams stay capped, and opening and dropping them leaks nothing', () => {
  it('a client that asks for 1,000 streams gets 8, then 429s; once they close every listener and watcher is gone', async () => {
    const rc = await consoleFor();
    const closed = trackResponses(rc.web.server);
    const before = footprint(rc);
    const agent = new Agent({ keepAlive: true, maxSockets: 40 });
    cleanups.push(async () => agent.destroy());
    const responses = await Promise.all(Array.from({ length: 1000 }, () => getEvents(rc, { agent })));
    const counts = responses.reduce<Record<number, number>>((c, r) => ({ ...c, [r.statusCode!]: (c[r.statusCode!] ?? 0) + 1 }), {});
    expect(counts).toEqual({ 200: 8, 429: 992 });
    expect([rc.web.openStreams, rc.web.session.operators]).toEqual([8, 8]);
    for (const res of responses) if (res.statusCode === 200) res.destroy();
    await Promise.all(closed);
    expect(closed).toHaveLength(1000);
    expect(footprint(rc)).toEqual(before);
  });

  it('200 streams opened and dropped, 8 at a time: every one is served, none is left behind', async () => {
    const rc = await consoleFor();
    const before = footprint(rc);
    for (let round = 0; round < 25; round++) {
      const closed = trackResponses(rc.web.server);
      const streams = await Promise.all(Array.from({ length: 8 }, () => getEvents(rc)));
      expect(streams.map((s) => s.statusCode)).toEqual(Array(8).fill(200));
      streams.forEach((s) => s.destroy());
      await Promise.all(closed);
      for (const cleanup of cleanups.splice(-1)) await cleanup(); // this round's tracking listener
    }
    expect(footprint(rc)).toEqual(before);
  });

  it('connections dropped before their stream is answered leave no stream, watcher or socket', async () => {
    const rc = await consoleFor();
    const before = footprint(rc);
    const sockets: Promise<unknown>[] = [];
    const track = (socket: Socket): number => sockets.push(once(socket, 'close'));
    rc.web.server.on('connection', track);
    const host = new URL(rc.base).host;
    for (let n = 0; n < 100; n++) {
      const socket = connect(Number(new URL(rc.base).port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`GET /events?token=${rc.web.token} HTTP/1.1\r\nHost: ${host}\r\n\r\n`, () => socket.destroy());
    }
    while (sockets.length < 100) await once(rc.web.server, 'connection');
    await Promise.all(sockets);
    rc.web.server.off('connection', track);
    expect(footprint(rc)).toEqual(before);
  });
});

describe('a client that never reads its stream is cut off, not buffered for', () => {
  it('what waits for it stays under maxStreamBacklog; its place and watcher are freed at once', async () => {
    const rc = await consoleFor({ maxStreamBacklog: 64 * 1024, maxReplayRecords: 5000 });
    let res: ServerResponse | undefined;
    rc.web.server.once('request', (_req, r: ServerResponse) => (res = r));
    const stream = await getEvents(rc); // never read: its socket stops being read once Node's buffer is full
    let peak = 0;
    for (let n = 0; n < 2000 && rc.web.openStreams > 0; n++) {
      rc.web.session.append(delta('x'.repeat(16 * 1024)), 1, 'turn-1');
      peak = Math.max(peak, res!.writableLength);
    }
    expect([rc.web.openStreams, rc.web.session.operators]).toEqual([0, 0]);
    expect(peak).toBeLessThan(64 * 1024 + 2 * 17 * 1024);
    // what it had been sent arrives whole, then the stream ends; a reconnection gets the rest
    const lastSeq = rc.web.session.lastSeq;
    const got = await readEvents(stream);
    expect(got).toEqual(range(1, got.length));
    expect(got.length).toBeLessThan(lastSeq);
    const rest = await readEvents(await getEvents(rc, { lastEventId: got.at(-1) ?? 0 }), (t) => t.includes(`id: ${lastSeq}\n`) && t.endsWith('\n\n'));
    expect(rest).toEqual(range((got.at(-1) ?? 0) + 1, lastSeq));
  });

  it('a page that reads keeps its stream through the same records', async () => {
    const rc = await consoleFor({ maxStreamBacklog: 64 * 1024 });
    const stream = await getEvents(rc);
    const all = readEvents(stream, (t) => t.includes('id: 40\n') && t.endsWith('\n\n'));
    for (let n = 0; n < 40; n++) rc.web.session.append(delta('y'.repeat(1024)), 1, 'turn-1');
    expect(await all).toEqual(range(1, 40));
  });
});

describe('slow requests are timed out by the server (slowloris)', () => {
  /** Writes `head`, then `piece` every `everyMs` (the attacker's pace) until the server closes the connection. */
  function trickle(rc: RunningConsole, head: string, piece: string, everyMs = 10): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(Number(new URL(rc.base).port), '127.0.0.1');
      let received = '';
      const timer = setInterval(() => socket.writable && socket.write(piece), everyMs);
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.once('close', () => (clearInterval(timer), resolve(received)));
      socket.write(head);
    });
  }

  it('the server has explicit header and request timeouts: 10 s and 30 s by default, or as configured', async () => {
    const rc = await consoleFor();
    expect([rc.web.server.headersTimeout, rc.web.server.requestTimeout]).toEqual([10_000, 30_000]);
    const set = await consoleFor({ headersTimeoutMs: 500, requestTimeoutMs: 2_000 });
    expect([set.web.server.headersTimeout, set.web.server.requestTimeout]).toEqual([500, 2_000]);
    const clamped = await consoleFor({ headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 });
    expect(clamped.web.server.headersTimeout).toBe(1_000);
    for (const bad of [0, -1, 1.5, Infinity, 2 ** 31, Number.NaN]) {
      expect(() => createApprovalConsole({ headersTimeoutMs: bad }), String(bad)).toThrow(ConfigurationError);
      expect(() => createApprovalConsole({ maxStreamBacklog: bad }), String(bad)).toThrow(ConfigurationError);
    }
  });

  it.each([
    ['headers trickling in, a line at a time', (host: string) => `GET /app.js HTTP/1.1\r\nHost: ${host}\r\n`, 'x-slow: 1\r\n'],
    ['a request line trickling in, a byte at a time', () => 'GET /', 'a'],
    ['a body trickling in, a byte at a time', (host: string) => `POST /api/turns HTTP/1.1\r\nHost: ${host}\r\nx-console-token: TOKEN\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"message":"`, 'x'],
  ])('%s: 408 and closed', async (_label, head, piece) => {
    const rc = await consoleFor({ headersTimeoutMs: 100, requestTimeoutMs: 200 });
    const received = await trickle(rc, head(new URL(rc.base).host).replace('TOKEN', rc.web.token), piece);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(rc.web.session.turnRunning).toBe(false);
  });

  it('a connection that sends nothing is closed too', async () => {
    const rc = await consoleFor({ headersTimeoutMs: 100, requestTimeoutMs: 200 });
    const socket = connect(Number(new URL(rc.base).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.resume();
    await once(socket, 'close');
  });

  it('an event stream is not a slow request: it outlives the timeouts', async () => {
    const rc = await consoleFor({ headersTimeoutMs: 100, requestTimeoutMs: 200 });
    const stream = await getEvents(rc);
    // a slow request started after the stream is timed out: the stream is older than requestTimeout now
    await trickle(rc, `POST /api/turns HTTP/1.1\r\nHost: ${new URL(rc.base).host}\r\nx-console-token: ${rc.web.token}\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n`, '');
    const next = readEvents(stream, (t) => t.includes('id: 1\n') && t.endsWith('\n\n'));
    rc.web.session.append(delta('still here'), 1, 'turn-1');
    expect(await next).toEqual([1]);
    expect(rc.web.openStreams).toBe(1);
  });
});
