import { thrownMessage, thrownType } from '../core/read-thrown.js';
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

/** The message of anything thrown (`thrownMessage`: never throws). */
export const errorMessage = thrownMessage;

/** What a tool threw, as `error.type` (`thrownType`: never throws). */
export const errorTypeOf = thrownType;
