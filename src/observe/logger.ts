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
