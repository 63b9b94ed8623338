import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Sent with every response: no caching, no referrer (the URL carries the token), a strict CSP. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** A request the console refuses, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks the session token, taken from `?token=`, the `x-console-token` header or
 * `authorization: Bearer …` (never a cookie). Missing → 401, wrong → 403.
 *
 * @example
 * ```ts
 * checkToken(req, url, token); // throws HttpError(401 | 403)
 * ```
 */
export function checkToken(req: IncomingMessage, url: URL, token: string): void {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const header = req.headers['x-console-token'];
  const given = url.searchParams.get('token') ?? (typeof header === 'string' ? header : undefined) ?? bearer;
  if (given === undefined || given === '') throw new HttpError(401, 'This console needs its session token.');
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new HttpError(403, 'Wrong session token.');
}

/**
 * Refuses a request whose `Host` is not one the console listens as (421): a page on another
 * name that resolves to this machine (DNS rebinding) never reaches the console, token or not.
 * `allowed` holds lowercase `host:port` values.
 *
 * @example
 * ```ts
 * checkHost(req, new Set(['127.0.0.1:8080', 'localhost:8080'])); // throws HttpError(421)
 * ```
 */
export function checkHost(req: IncomingMessage, allowed: ReadonlySet<string>): void {
  const host = req.headers.host?.trim().toLowerCase();
  if (host === undefined || !allowed.has(host)) {
    throw new HttpError(421, 'This console answers only on the address it listens on.');
  }
}

/** The loopback names, besides the address itself, a console bound to an address answers to. */
const LOOPBACK_NAMES: Readonly<Record<string, readonly string[]>> = {
  '127.0.0.1': ['localhost'],
  '::1': ['localhost'],
  '0.0.0.0': ['127.0.0.1', 'localhost'],
  '::': ['127.0.0.1', '[::1]', 'localhost'],
};

/**
 * The `host:port` values a console bound to `address` answers to: the address itself
 * (IPv6 in brackets), plus `localhost:port` for a loopback address, plus the loopback names for
 * a wildcard bind (`0.0.0.0`, `::`), plus any `extra`. Any other name (the machine's own on the
 * network included) must be in `extra`.
 *
 * @example
 * ```ts
 * boundHosts('127.0.0.1', 8080); // Set { '127.0.0.1:8080', 'localhost:8080' }
 * ```
 */
export function boundHosts(address: string, port: number, extra: readonly string[] = []): Set<string> {
  const host = address.includes(':') ? `[${address}]` : address;
  const hosts = new Set([`${host}:${port}`.toLowerCase(), ...extra.map((h) => h.trim().toLowerCase())]);
  for (const name of LOOPBACK_NAMES[address] ?? []) hosts.add(`${name}:${port}`);
  return hosts;
}

/**
 * Refuses a state-changing request that a browser says came from another page: an `Origin` that
 * is not this console's own (`null` included), or a `Sec-Fetch-Site` other than `same-origin` or
 * `none` (a cross-site or same-site request, even one that carries no `Origin`). A client that is
 * not a browser sends neither and passes on its token alone.
 *
 * @example
 * ```ts
 * checkOrigin(req); // throws HttpError(403) for a cross-origin POST
 * ```
 */
export function checkOrigin(req: IncomingMessage): void {
  const origin = req.headers.origin?.toLowerCase();
  if (origin !== undefined && origin !== `http://${req.headers.host ?? ''}`.toLowerCase()) {
    throw new HttpError(403, 'Cross-origin requests are refused.');
  }
  const site = req.headers['sec-fetch-site']?.toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new HttpError(403, 'Cross-site requests are refused.');
  }
}

/** How much of a refused body is read and dropped (so a keep-alive connection goes on) before the connection is closed instead. */
const DRAIN_LIMIT = 1024 * 1024;

/**
 * Reads a JSON object body of at most `limit` bytes (415 unless it is `application/json`,
 * 413 when too large, 400 when it is not a JSON object). A body declared too large is refused
 * before any of it is read; one that turns out too large stops being read (see `discardBody`).
 *
 * @example
 * ```ts
 * const body = await readJsonObject(req, 256 * 1024);
 * ```
 */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new HttpError(415, 'Send the body as application/json.');
  }
  const text = await readBody(req, limit);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'The body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/**
 * Sends a JSON response with the security headers.
 *
 * @example
 * ```ts
 * sendJson(res, 404, { error: 'No such request.' });
 * ```
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The body as UTF-8 text, or a 413 once it passes `limit` (reading stops there: `discardBody` drops the rest). */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData).pause();
      chunks.length = 0;
      reject(new HttpError(413, `The body is larger than ${limit} bytes.`));
    };
    if (Number(req.headers['content-length']) > limit) return reject(new HttpError(413, `The body is larger than ${limit} bytes.`));
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

/**
 * Drops the unread rest of a request's body (a refusal before it was read: 401, 403, 413, 415,
 * 421…, or a GET that has one): up to `DRAIN_LIMIT` bytes are read and dropped, so a keep-alive
 * connection serves its next request; past that the connection is closed, never read to the end.
 * Call it before the response is sent (node:http would otherwise read all of it, however large).
 *
 * @example
 * ```ts
 * discardBody(req);
 * sendJson(res, 401, { error: 'This console needs its session token.' });
 * ```
 */
export function discardBody(req: IncomingMessage): void {
  if (req.complete || req.destroyed || req.listenerCount('data') > 0) return;
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_LIMIT) req.socket.destroy();
  });
  req.resume();
}

/**
 * Marks the response of a request whose declared body is past `DRAIN_LIMIT` `connection: close`:
 * whatever it is, the console never reads that much, so the connection cannot serve another.
 *
 * @example
 * ```ts
 * createServer((req, res) => (closeAfterHugeBody(req, res), route(req, res)));
 * ```
 */
export function closeAfterHugeBody(req: IncomingMessage, res: ServerResponse): void {
  if (Number(req.headers['content-length']) > DRAIN_LIMIT) res.setHeader('connection', 'close');
}
