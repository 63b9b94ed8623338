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
  const { hostname, port } = new URL(base);
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
  const { hostname, port } = new URL(base);
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
