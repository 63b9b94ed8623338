import type { JsonSchema } from '../core/tool.js';

/**
 * What a tool's parameter schema (JSON Schema, input side) says the arguments are: `'object'`
 * when they are an object — `type: 'object'`, or a union (`anyOf`/`oneOf`) of object schemas
 * (a `null` branch allowed), or an intersection (`allOf`) of object schemas and unconstrained
 * ones, a local `$ref` followed — else what they are instead (`'string'`, `'array'`, …,
 * `'unconstrained'` for a schema with no type at all, such as `z.any()`'s, `'unknown'` for one
 * it cannot tell). A tool's arguments are
 * always a JSON object, so a tool whose schema says otherwise could never run.
 *
 * @example
 * ```ts
 * schemaKind({ type: 'object', properties: {} });                  // 'object'
 * schemaKind({ anyOf: [{ type: 'object' }, { type: 'object' }] }); // 'object'
 * schemaKind({ type: 'string' });                                  // 'string'
 * ```
 */
export function schemaKind(schema: JsonSchema): string {
  return kindOf(schema, schema, 0);
}

const OBJECT = 'object';
const UNCONSTRAINED = 'unconstrained';
const MAX_DEPTH = 16;

function kindOf(node: unknown, root: JsonSchema, depth: number): string {
  if (node === true || (isRecord(node) && Object.keys(node).every(isAnnotation))) return UNCONSTRAINED;
  if (!isRecord(node) || depth > MAX_DEPTH) return 'unknown';
  if (node.type !== undefined) return typeKind(node.type);
  if (typeof node.$ref === 'string') return kindOf(resolveRef(node.$ref, root), root, depth + 1);
  const union = node.anyOf ?? node.oneOf;
  if (Array.isArray(union) && union.length > 0) {
    const kinds = union.map((branch) => kindOf(branch, root, depth + 1));
    return kinds.includes(OBJECT) && kinds.every((k) => k === OBJECT || k === 'null') ? OBJECT : mixed(kinds);
  }
  if (Array.isArray(node.allOf) && node.allOf.length > 0) {
    const kinds = node.allOf.map((part) => kindOf(part, root, depth + 1));
    return kinds.includes(OBJECT) && kinds.every((k) => k === OBJECT || k === UNCONSTRAINED) ? OBJECT : mixed(kinds);
  }
  return 'unknown'; // `not`, `enum` without a type, …: nothing known to be an object
}

/** `type: 'object'` (or a list of types with `'object'` and at most `'null'` beside it). */
function typeKind(type: unknown): string {
  if (typeof type === 'string') return type;
  if (Array.isArray(type) && type.includes(OBJECT) && type.every((t) => t === OBJECT || t === 'null')) return OBJECT;
  return Array.isArray(type) ? type.join(' | ') : 'unknown';
}

function mixed(kinds: readonly string[]): string {
  return [...new Set(kinds)].join(' | ');
}

/** A local reference (`#`, `#/$defs/Name`, `#/definitions/Name`); anything else resolves to nothing. */
function resolveRef(ref: string, root: JsonSchema): unknown {
  if (ref === '#') return root;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!match) return undefined;
  const defs = (root as Record<string, unknown>)[match[1]];
  return isRecord(defs) && Object.hasOwn(defs, match[2]) ? defs[match[2]] : undefined;
}

/** Keys that say nothing about what a value may be. */
const isAnnotation = (key: string): boolean =>
  key === 'description' || key === 'title' || key === 'default' || key === 'examples' || key === 'readOnly' || key === '$comment';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
