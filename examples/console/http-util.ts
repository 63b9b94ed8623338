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

/**
 * The `host:port` values a console bound to `address` answers to: the address itself
 * (IPv6 in brackets), plus `localhost:port` for a loopback address, plus any `extra`.
 *
 * @example
 * ```ts
 * boundHosts('127.0.0.1', 8080); // Set { '127.0.0.1:8080', 'localhost:8080' }
 * ```
 */
export function boundHosts(address: string, port: number, extra: readonly string[] = []): Set<string> {
  const host = address.includes(':') ? `[${address}]` : address;
  const hosts = new Set([`${host}:${port}`.toLowerCase(), ...extra.map((h) => h.trim().toLowerCase())]);
  if (address === '127.0.0.1' || address === '::1') hosts.add(`localhost:${port}`);
  return hosts;
}

/**
 * Refuses a state-changing request sent from another origin (the browser says so in `Origin`).
 *
 * @example
 * ```ts
 * checkOrigin(req); // throws HttpError(403) for a cross-origin POST
 * ```
 */
export function checkOrigin(req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host ?? ''}`) {
    throw new HttpError(403, 'Cross-origin requests are refused.');
  }
}

/** How much of a refused body is read and dropped (so a keep-alive connection goes on) before the connection is closed instead. */
const DRAIN_LIMIT = 1024 * 1024;

/**
 * Reads a JSON object body of at most `limit` bytes (415 unless it is `application/json`,
 * 413 when too large, 400 when it is not a JSON object). The rest of a body that is too large
 * is read and dropped, so the client gets its 413 and the connection serves the next request;
 * past another megabyte the connection is closed.
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

/** The body as UTF-8 text, or a 413 once it passes `limit` (what follows is drained, not kept). */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let dropped = -1;
    const tooLarge = (): void => {
      dropped = 0;
      chunks.length = 0;
      reject(new HttpError(413, `The body is larger than ${limit} bytes.`));
    };
    req.on('data', (chunk: Buffer) => {
      if (dropped >= 0) {
        dropped += chunk.length;
        if (dropped > DRAIN_LIMIT) req.socket.destroy();
        return;
      }
      size += chunk.length;
      if (size > limit) return tooLarge();
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
    if (Number(req.headers['content-length']) > limit) tooLarge();
  });
}
