import { ConfigurationError } from '../core/errors.js';
import type { Tool } from '../core/tool.js';

/** A named set of tools, added to an agent together and selectable as `bundle:{name}`. */
export interface ToolBundle {
  readonly name: string;
  readonly tools: readonly Tool[];
}

/**
 * Names a set of tools. Give bundles to `createAgent({ bundles })`; a risk profile or a run can
 * then select them with `bundle:{name}` next to tool names and globs.
 *
 * @example
 * ```ts
 * const files = toolBundle('files', [fileRead, fileWrite]);
 * createAgent({ provider, model, tools: [], bundles: [files], riskProfile: { allowed: ['bundle:files'] } });
 * ```
 */
export function toolBundle(name: string, tools: readonly Tool[]): ToolBundle {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw new ConfigurationError(`Invalid bundle name '${name}': use letters, digits, '_', '.' or '-'.`);
  }
  return Object.freeze({ name, tools: Object.freeze([...tools]) });
}
