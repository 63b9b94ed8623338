import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly body: string;
}

/**
 * One request with headers exactly as given (the `Host` header included, or left out when
 * `host` is null), over its own connection.
 */
export function rawRequest(
  base: string,
  options: { method?: string; path: string; host: string | null; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const { hostname: bracketed, port } = new URL(base);
  const hostname = bracketed.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname,
        port,
        method: options.method ?? 'GET',
        path: options.path,
        setHost: false,
        agent: false,
        headers: { ...(options.host === null ? {} : { host: options.host }), ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        if (res.headers['content-type']?.startsWith('text/event-stream')) {
          resolve({ status: res.statusCode ?? 0, body: '' });
          res.destroy();
        }
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Writes `bytes` to one TCP connection and collects what comes back until `until(received)` is
 * true (resolves `{ received, closed: false }`) or the server closes it (`closed: true`).
 */
export function rawExchange(
  base: string,
  bytes: readonly (string | Buffer)[],
  until: (received: string) => boolean,
): Promise<{ received: string; closed: boolean }> {
  const { hostname: bracketed, port } = new URL(base);
  const hostname = bracketed.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let settled = false;
    const finish = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve({ received, closed });
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (until(received)) finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    for (const b of bytes) socket.write(b);
  });
}

/** The status codes of every response in a raw HTTP/1.1 byte stream, in order. */
export const statusLines = (received: string): number[] =>
  [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

/**
 * Sends `head` (a request's line and headers, up to the blank line) and then up to `total`
 * bytes of body in 1 MiB blocks (chunked framing when `chunked`), as fast as the server takes
 * them, until it has all been written or the server closes the connection. Resolves with what
 * came back, how many body bytes the socket took, and whether the server closed it.
 */
export function floodBody(base: string, head: string, total: number, chunked = false): Promise<{ received: string; written: number; closed: boolean }> {
  const { hostname: bracketed, port } = new URL(base);
  const hostname = bracketed.replace(/^\[|\]$/g, '');
  const block = Buffer.alloc(1024 * 1024, 0x61);
  const frame = chunked ? Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from('\r\n')]) : block;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let written = 0;
    let settled = false;
    const finish = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve({ received, written, closed });
    };
    const pump = (): void => {
      while (!settled && written < total) {
        written += block.length;
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
      // all of it taken: the server read the whole body (wait for its answer, if any, then stop)
      if (!settled) socket.write(chunked ? '0\r\n\r\n' : '', () => (/\r\n\r\n/.test(received) ? finish(false) : socket.once('data', () => finish(false))));
    };
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.write(head);
    pump();
  });
}
