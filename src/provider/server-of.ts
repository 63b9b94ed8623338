import type { ProviderServer } from './provider.js';

/**
 * The server a base URL points to, for `server.address` / `server.port`: its host name, and its
 * port (the scheme's default when the URL names none). Undefined for a missing or unparsable URL.
 *
 * @example
 * ```ts
 * serverOf('http://localhost:11434/v1'); // { address: 'localhost', port: 11434 }
 * serverOf('https://api.openai.com/v1'); // { address: 'api.openai.com', port: 443 }
 * ```
 */
export function serverOf(baseURL: string | undefined): ProviderServer | undefined {
  if (typeof baseURL !== 'string' || baseURL.length === 0) return undefined;
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return undefined;
  }
  if (url.hostname.length === 0) return undefined;
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : undefined;
  const address = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return port !== undefined ? { address, port } : { address };
}
