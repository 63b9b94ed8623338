import type { ArgsCheck, JsonSchema } from '../core/tool.js';

type Args = Record<string, unknown>;

/**
 * A light argument check compiled once from a JSON Schema (an MCP tool's `inputSchema`): the
 * arguments must be an object, required keys present, declared properties of their declared
 * `type` and within their `enum`, and no extra keys when `additionalProperties` is false.
 * Everything deeper is left to the server, which validates again.
 *
 * @example
 * ```ts
 * const check = jsonSchemaCheck({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] });
 * check({}); // { ok: false, message: "missing required property 'a'" }
 * ```
 */
export function jsonSchemaCheck(schema: JsonSchema): (args: unknown) => ArgsCheck<Args> {
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((k): k is string => typeof k === 'string') : [];
  const properties = isObject(schema.properties) ? schema.properties : {};
  const rules: { key: string; types?: readonly string[]; values?: readonly unknown[] }[] = [];
  for (const [key, prop] of Object.entries(properties)) {
    if (!isObject(prop)) continue;
    const types = typeof prop.type === 'string' ? [prop.type] : Array.isArray(prop.type) ? (prop.type as string[]) : undefined;
    const values = Array.isArray(prop.enum) ? (prop.enum as unknown[]) : undefined;
    if (types || values) rules.push({ key, types, values });
  }
  const closed = schema.additionalProperties === false;
  return (args) => {
    if (!isObject(args)) return { ok: false, message: `the arguments must be an object, got ${jsonType(args)}` };
    const problems: string[] = [];
    for (const key of required) if (args[key] === undefined) problems.push(`missing required property '${key}'`);
    for (const { key, types, values } of rules) {
      const value = args[key];
      if (value === undefined) continue;
      if (types && !types.some((type) => hasType(value, type))) {
        problems.push(`property '${key}' must be ${types.join(' or ')}, got ${jsonType(value)}`);
      } else if (values && !values.includes(value)) {
        problems.push(`property '${key}' must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
      }
    }
    if (closed) {
      for (const key of Object.keys(args)) if (!(key in properties)) problems.push(`unexpected property '${key}'`);
    }
    return problems.length === 0 ? { ok: true, value: args } : { ok: false, message: problems.join('; ') };
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return isObject(value);
    default:
      return jsonType(value) === type;
  }
}
