import { z } from 'zod';
import { TurnInputError } from '../core/errors.js';
import { thrownMessage } from '../core/read-thrown.js';
import type { OutputCheck, OutputFormat, OutputIssue, OutputSchema } from '../core/structured-output.js';
import { deepFreeze } from './deep-freeze.js';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** One `OutputSchema` per zod schema: an agent's turns that share a schema share its JSON Schema. */
const made = new WeakMap<object, OutputSchema>();

/**
 * A turn's output schema from a zod schema: the format requests carry (its JSON Schema, input
 * side, frozen, made once per zod schema; named by `.meta({ title })` when that is 1-64 letters,
 * digits, `_` or `-`, else `output`), and the check of a reply: JSON (one ``` fence around it is
 * accepted), then the zod schema. Something that is not a zod schema, or a schema that cannot be
 * written as JSON Schema, is a `TurnInputError`.
 *
 * @example
 * ```ts
 * const output = outputSchema(z.object({ city: z.string() }));
 * output.check('```json\n{"city": "Oslo"}\n```'); // { ok: true, value: { city: 'Oslo' } }
 * ```
 */
export function outputSchema(schema: z.ZodType): OutputSchema {
  if (!isZodSchema(schema)) throw new TurnInputError('Invalid turn input: output: expected a zod schema.');
  let output = made.get(schema);
  if (output === undefined) {
    output = Object.freeze({ format: formatOf(schema), check: (text: string) => check(schema, text) });
    made.set(schema, output);
  }
  return output;
}

function formatOf(schema: z.ZodType): OutputFormat {
  let json: Record<string, unknown>;
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    json = rest;
  } catch (cause) {
    throw new TurnInputError('Invalid turn input: output: the schema cannot be written as JSON Schema.', { cause });
  }
  const title = z.globalRegistry.get(schema)?.title;
  const name = typeof title === 'string' && NAME.test(title) ? title : 'output';
  return deepFreeze({ name, schema: json });
}

function check(schema: z.ZodType, text: string): OutputCheck {
  const json = unfenced(text.trim());
  if (json.length === 0) return failed([], 'the reply is empty, not JSON');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    return failed([], `the reply is not valid JSON (${thrownMessage(err)})`);
  }
  try {
    const parsed = schema.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data };
    return { ok: false, issues: parsed.error.issues.map(toIssue) };
  } catch (err) {
    // an async refinement, or one that throws: the schema could not decide
    return failed([], `the schema could not check it (${thrownMessage(err)})`);
  }
}

/** The text inside one ``` fence (its first line, the language, dropped), or the text itself. */
function unfenced(text: string): string {
  if (text.length < 6 || !text.startsWith('```') || !text.endsWith('```')) return text;
  const newline = text.indexOf('\n');
  if (newline < 0 || newline > text.length - 4) return text;
  return text.slice(newline + 1, -3).trim();
}

const failed = (path: OutputIssue['path'], message: string): OutputCheck => ({ ok: false, issues: [{ path, message }] });

const toIssue = (issue: { readonly path: readonly PropertyKey[]; readonly message: string }): OutputIssue => ({
  path: issue.path.map((key) => (typeof key === 'number' ? key : String(key))),
  message: issue.message,
});

const isZodSchema = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value && typeof (value as { safeParse?: unknown }).safeParse === 'function';
