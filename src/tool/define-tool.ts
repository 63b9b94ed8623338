import { z } from 'zod';
import { ConfigurationError } from '../core/errors.js';
import { duration } from '../core/knobs.js';
import type { ArgsCheck, JsonSchema, Tool, ToolAttribution, ToolContext, ToolReturn, ToolRisk, ToolSpec } from '../core/tool.js';
import { deepFreeze } from './deep-freeze.js';
import { schemaKind } from './schema-kind.js';

/** Options of `defineTool`. `parameters` is a zod object schema (input side); `execute` gets its parsed output. */
export interface DefineToolOptions<S extends z.ZodType> {
  name: string;
  description: string;
  parameters: S;
  execute: (args: z.output<S>, ctx: ToolContext) => ToolReturn;
  risk?: ToolRisk;
  approvalMarker?: boolean;
  channelArg?: string;
  dedupExempt?: boolean;
  timeoutMs?: number;
  /**
   * Safe to run twice: after a crash mid-call (a durable turn resumed elsewhere) the call runs
   * again instead of closing `interrupted`. Default false (at most once).
   */
  idempotent?: boolean;
  attribution?: ToolAttribution;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Defines a tool from a zod schema. The schema is turned once into a frozen JSON Schema (input
 * side) that every provider spec shares; arguments are validated before `execute` runs. The
 * schema must describe an object (`z.object`, `z.looseObject`, `z.strictObject`, a union or
 * intersection of them, a pipe whose input is one): a tool's arguments are a JSON object, and
 * any other schema (`z.string()`, `z.array(…)`, `z.any()`) is a `ConfigurationError` here.
 *
 * @example
 * ```ts
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => String(a + b),
 * });
 * ```
 */
export function defineTool<S extends z.ZodType>(options: DefineToolOptions<S>): Tool<z.output<S>> {
  const { name, description, parameters, execute } = options;
  if (!NAME.test(name)) {
    throw new ConfigurationError(`Invalid tool name '${name}': use 1-64 letters, digits, '_' or '-'.`);
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) {
    throw new ConfigurationError(`Tool '${name}': timeoutMs must be a positive number.`);
  }
  // whole ms; past Node's timer limit (Infinity included) is no deadline, kept as Infinity so it overrides toolTimeoutMs
  const timeoutMs = duration(`Tool '${name}': timeoutMs`, options.timeoutMs, undefined, true) ?? (options.timeoutMs === undefined ? undefined : Infinity);
  let schema: JsonSchema;
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(parameters, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    schema = deepFreeze(rest);
  } catch (cause) {
    throw new ConfigurationError(`Tool '${name}': its parameters cannot be expressed as JSON Schema.`, { cause });
  }
  const kind = schemaKind(schema);
  if (kind !== 'object') {
    // arguments are always a JSON object: a tool with another schema could never run
    throw new ConfigurationError(`Tool '${name}': parameters must be an object schema (z.object({ … })), not ${kind === 'unconstrained' ? 'a schema without a type' : `'${kind}'`}.`);
  }
  const spec: ToolSpec = Object.freeze({ name, description, parameters: schema });
  const check = (args: unknown): ArgsCheck<z.output<S>> => {
    const parsed = parameters.safeParse(args);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, message: z.prettifyError(parsed.error) };
  };
  return Object.freeze({
    name,
    description,
    spec,
    openAI: Object.freeze({ type: 'function' as const, function: spec }),
    risk: options.risk,
    approvalMarker: options.approvalMarker ?? false,
    channelArg: options.channelArg,
    dedupExempt: options.dedupExempt ?? false,
    timeoutMs,
    idempotent: options.idempotent ?? false,
    attribution: Object.freeze(options.attribution ?? { source: 'builtin' }),
    check,
    execute,
  });
}
