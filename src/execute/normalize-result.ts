import type { ToolResult } from '../core/tool.js';

/**
 * Turns whatever a tool returned into a ToolResult: a string is the output; a ToolResult is
 * kept; nothing becomes empty output; any other value is rendered as JSON (or String when it
 * cannot be).
 *
 * @example
 * ```ts
 * normalizeResult('42'); // { success: true, output: '42' }
 * ```
 */
export function normalizeResult(value: unknown): ToolResult {
  if (typeof value === 'string') return { success: true, output: value };
  if (value === undefined || value === null) return { success: true, output: '' };
  if (typeof value === 'object' && typeof (value as ToolResult).success === 'boolean') {
    const result = value as ToolResult;
    if (typeof result.output === 'string' && (result.error === undefined || typeof result.error === 'string')) return result;
    return {
      success: result.success,
      output: typeof result.output === 'string' ? result.output : render(result.output),
      error: result.error === undefined ? undefined : typeof result.error === 'string' ? result.error : render(result.error),
      data: result.data,
    };
  }
  return { success: true, output: render(value), data: value };
}

function render(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json;
  } catch {
    return String(value);
  }
}

/** The message of anything thrown. */
export function errorMessage(err: unknown): string {
  try {
    if (err instanceof Error) return err.message || err.name;
    if (err === undefined || err === null) return String(err);
    return typeof err === 'string' ? err : render(err);
  } catch {
    return 'an error that could not be read';
  }
}

/** What a tool threw, as `error.type`: its `code` (a ToolLoopError's, e.g. `tool_timeout`), else its class name. */
export function errorTypeOf(thrown: unknown): string {
  const code = (thrown as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'string' && code.length > 0) return code;
  if (thrown instanceof Error) return thrown.constructor.name || thrown.name || 'Error';
  return '_OTHER';
}
