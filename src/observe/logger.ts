/** The logging port: a subset of pino's API, so a pino logger can be passed as it is. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child?(bindings: Record<string, unknown>): Logger;
}

import { scrubCredentials } from '../results/scrub.js';
import { scrubValue } from '../results/scrub-value.js';

const noop = (): void => {};

/** A logger that drops everything (the default). */
export const noopLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });

/**
 * Wraps a logger so that a failing log call (a broken transport, a throwing serializer) can
 * never fail a turn: the loop logs from places where a throw would lose a result. Every line is
 * scrubbed here, the one place all of the library's log lines pass (its object with
 * `scrubValue` — errors from hooks, front doors, observers and providers included — and its
 * message with `scrubCredentials`). Children and their bindings are guarded and scrubbed too.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * createAgent({ ..., logger: pino() }); // guarded by createAgent
 * guardedLogger(pino()).warn({ err: new Error('token=abcd1234efgh') }, 'hook failed'); // logs 'token=[REDACTED]'
 * ```
 */
export function guardedLogger(logger: Logger): Logger {
  if (logger === noopLogger) return logger;
  const enabled = levelCheck(logger);
  const guard =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (obj: object, msg?: string): void => {
      try {
        if (enabled !== undefined && !enabled(level)) return; // a line the logger drops is not scrubbed first
        logger[level](scrubValue(obj), msg === undefined ? msg : scrubCredentials(msg));
      } catch {
        // a logger that throws is treated as one that dropped the line
      }
    };
  return {
    debug: guard('debug'),
    info: guard('info'),
    warn: guard('warn'),
    error: guard('error'),
    ...(enabled ? { isLevelEnabled: enabled } : {}),
    ...(logger.child
      ? {
          child: (bindings: Record<string, unknown>): Logger => {
            try {
              return guardedLogger(logger.child!(scrubValue(bindings)));
            } catch {
              return noopLogger;
            }
          },
        }
      : {}),
  };
}

/**
 * pino's `isLevelEnabled`, when the logger has one, as a function that never throws (a throwing
 * check counts as enabled: the line goes to the logger, which decides).
 *
 * @example
 * ```ts
 * const debug = levelCheck(logger)?.('debug') ?? true;
 * ```
 */
export function levelCheck(logger: Logger): ((level: string) => boolean) | undefined {
  const check = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  if (typeof check !== 'function') return undefined;
  return (level) => {
    try {
      return check.call(logger, level) !== false;
    } catch {
      return true;
    }
  };
}
