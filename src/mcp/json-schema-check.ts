import type { ArgsCheck, JsonSchema } from '../core/tool.js';

type Args = Record<string, unknown>;

/**
 * A light argument check compiled once from a JSON Schema (an MCP tool's `inputSchema`): the
 * arguments must be an object, required keys present, declared properties of their declared
 * `type` and within their `enum`, and no extra keys when `additionalProperties` is false.
 * Only own properties count, of the arguments and of the schema: an inherited name
 * (`constructor`, `toString`, `__proto__`, …) is neither a present key nor a declared one.
 * Everything deeper is left to the server, which validates again.
 *
 * @example
 * ```ts
 * const check = jsonSchemaCheck({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] });
 * check({}); // { ok: false, message: "missing required property 'a'" }
 * ```
 */
export function jsonSchemaCheck(schema: JsonSchema): (args: unknown) => ArgsCheck<Args> {
  const requiredList = own(schema, 'required');
  const required = Array.isArray(requiredList) ? (requiredList as unknown[]).filter((k): k is string => typeof k === 'string') : [];
  const declared = own(schema, 'properties');
  const properties: Args = isObject(declared) ? declared : {};
  const rules: { key: string; types?: readonly string[]; values?: readonly unknown[] }[] = [];
  for (const [key, prop] of Object.entries(properties)) {
    if (!isObject(prop)) continue;
    const type = own(prop, 'type');
    const listed = own(prop, 'enum');
    const types = typeof type === 'string' ? [type] : Array.isArray(type) ? (type as string[]) : undefined;
    const values = Array.isArray(listed) ? (listed as unknown[]) : undefined;
    if (types || values) rules.push({ key, types, values });
  }
  const closed = own(schema, 'additionalProperties') === false;
  return (args) => {
    if (!isObject(args)) return { ok: false, message: `the arguments must be an object, got ${jsonType(args)}` };
    const problems: string[] = [];
    for (const key of required) if (own(args, key) === undefined) problems.push(`missing required property '${key}'`);
    for (const { key, types, values } of rules) {
      const value = own(args, key);
      if (value === undefined) continue;
      if (types && !types.some((type) => hasType(value, type))) {
        problems.push(`property '${key}' must be ${types.join(' or ')}, got ${jsonType(value)}`);
      } else if (values && !values.includes(value)) {
        problems.push(`property '${key}' must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
      }
    }
    if (closed) {
      for (const key of Object.keys(args)) if (!Object.hasOwn(properties, key)) problems.push(`unexpected property '${key}'`);
    }
    return problems.length === 0 ? { ok: true, value: args } : { ok: false, message: problems.join('; ') };
  };
}

/**
 * A key's value only when the object holds it itself: `constructor`, `toString`, `__proto__`
 * and the rest of `Object.prototype` are never read as arguments or schema entries.
 */
const own = (object: object, key: string): unknown =>
  Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;

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
