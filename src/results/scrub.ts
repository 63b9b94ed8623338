const KEYED =
  /((?:authorization|token|api[_-]?key|password|passwd|secret|bearer|credential|cookie)[A-Za-z_-]*["']?\s*[:=]\s*["']?)([^\s"',;&]{8,})/gi;
const SHAPES: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)@/gi;
const MAYBE_SECRET = /[:=]|sk-|gh[pousr]_|AKIA|eyJ|:\/\//i;

/**
 * Redacts credentials in text meant for people and telemetry: values of secret-like keys keep
 * their first 4 characters then `*[REDACTED]`; well-known token shapes are redacted whole.
 * Never applied to history or to receipt input.
 *
 * @example
 * ```ts
 * scrubCredentials('token=abcd1234efgh'); // 'token=abcd*[REDACTED]'
 * ```
 */
export function scrubCredentials(text: string): string {
  if (text.length < 8 || !MAYBE_SECRET.test(text)) return text;
  let out = text.replace(KEYED, (_m, key: string, value: string) => `${key}${value.slice(0, 4)}*[REDACTED]`);
  for (const shape of SHAPES) out = out.replace(shape, '[REDACTED]');
  return out.replace(URL_PASSWORD, '$1[REDACTED]@');
}
