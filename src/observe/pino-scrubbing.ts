import { REDACTED } from '../results/scrub.js';
import { scrubValue } from '../results/scrub-value.js';

const SECRET_FIELDS = [
  'password', 'passwd', 'pass', 'pwd', 'passphrase', 'token', 'accessToken', 'refreshToken', 'apiKey', 'api_key', 'secret',
  'authorization', 'cookie',
];

/** pino `redact` paths for secret-named fields at the top level and one level down, and in request headers. */
export const pinoRedactPaths: readonly string[] = Object.freeze([
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'headers["x-api-key"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
  '*.headers["x-api-key"]',
]);

/**
 * pino options that keep credentials out of every log line: `redact` censors secret-named
 * fields, and `formatters.log` runs `scrubValue` over each line's object (strings at any depth,
 * including error messages and stacks). Spread them into your pino options; the library
 * itself scrubs what it logs, this also covers what your own code logs through the same logger.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * const logger = pino({ ...pinoScrubbing, level: 'debug' });
 * createAgent({ provider, model, tools, logger });
 * ```
 */
export const pinoScrubbing = Object.freeze({
  redact: Object.freeze({ paths: [...pinoRedactPaths], censor: REDACTED }),
  formatters: Object.freeze({
    log: (object: Record<string, unknown>): Record<string, unknown> => scrubValue(object),
  }),
});
