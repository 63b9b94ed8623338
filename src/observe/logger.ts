/** The logging port: a subset of pino's API, so a pino logger can be passed as it is. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child?(bindings: Record<string, unknown>): Logger;
}

const noop = (): void => {};

/** A logger that drops everything (the default). */
export const noopLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });

/**
 * Wraps a logger so that a failing log call (a broken transport, a throwing serializer) can
 * never fail a turn: the loop logs from places where a throw would lose a result. Children are
 * guarded too.
 *
 * @example
 * ```ts
 * createAgent({ ..., logger: pino() }); // guarded by createAgent
 * ```
 */
export function guardedLogger(logger: Logger): Logger {
  if (logger === noopLogger) return logger;
  const guard =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (obj: object, msg?: string): void => {
      try {
        logger[level](obj, msg);
      } catch {
        // a logger that throws is treated as one that dropped the line
      }
    };
  return {
    debug: guard('debug'),
    info: guard('info'),
    warn: guard('warn'),
    error: guard('error'),
    ...(logger.child
      ? {
          child: (bindings: Record<string, unknown>): Logger => {
            try {
              return guardedLogger(logger.child!(bindings));
            } catch {
              return noopLogger;
            }
          },
        }
      : {}),
  };
}
