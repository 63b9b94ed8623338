import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, defineTool, DuplicateToolError, ToolRegistry } from '../../src/index.js';

const weather = defineTool({
  name: 'weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string(), units: z.enum(['c', 'f']).default('c') }),
  execute: ({ city, units }) => `${city}: 20°${units}`,
});

describe('defineTool turns the zod schema once into a frozen JSON Schema (input side)', () => {
  it('describes the input side: defaulted fields stay optional', () => {
    expect(weather.spec.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, units: { enum: ['c', 'f'], default: 'c' } },
      required: ['city'],
    });
    expect(weather.spec.parameters).not.toHaveProperty('$schema');
  });

  it('freezes the schema deeply so no request can mutate it', () => {
    expect(Object.isFrozen(weather.spec)).toBe(true);
    expect(Object.isFrozen(weather.spec.parameters)).toBe(true);
    expect(Object.isFrozen((weather.spec.parameters as { properties: object }).properties)).toBe(true);
    expect(() => {
      (weather.spec.parameters as Record<string, unknown>).type = 'string';
    }).toThrow(TypeError);
  });

  it('shares one spec object between the registry specs, the OpenAI form and every listing', () => {
    const registry = new ToolRegistry([weather]);
    expect(registry.specs()[0]).toBe(weather.spec);
    expect(registry.specs()[0]).toBe(registry.specs()[0]);
    expect(registry.openAITools()[0]).toEqual({ type: 'function', function: weather.spec });
    expect(registry.openAITools()[0].function).toBe(weather.spec);
  });

  it('validates arguments and applies defaults', () => {
    expect(weather.check({ city: 'Oslo' })).toEqual({ ok: true, value: { city: 'Oslo', units: 'c' } });
    const bad = weather.check({ city: 3 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toMatch(/city/);
  });

  it('rejects names a provider cannot carry', () => {
    expect(() => defineTool({ name: 'has space', description: '', parameters: z.object({}), execute: () => '' })).toThrow(
      ConfigurationError,
    );
    expect(() => defineTool({ name: 'x', description: '', parameters: z.object({}), execute: () => '', timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
  });

  it('timeoutMs is whole milliseconds; past the timer limit (Infinity included) is no deadline', () => {
    const tool = (timeoutMs: number) => defineTool({ name: 'x', description: '', parameters: z.object({}), execute: () => '', timeoutMs });
    expect(() => tool(0.5)).toThrow(ConfigurationError);
    expect(tool(2 ** 31 - 1).timeoutMs).toBe(2 ** 31 - 1);
    expect([tool(2 ** 31).timeoutMs, tool(Infinity).timeoutMs]).toEqual([Infinity, Infinity]);
  });

  it('defaults attribution to built-in and the flags to off', () => {
    expect(weather.attribution).toEqual({ source: 'builtin' });
    expect([weather.approvalMarker, weather.dedupExempt]).toEqual([false, false]);
  });
});

describe('ToolRegistry rejects duplicate names with a clear error', () => {
  it('throws DuplicateToolError naming the tool', () => {
    const registry = new ToolRegistry([weather]);
    expect(() => registry.add(weather)).toThrow(DuplicateToolError);
    expect(() => new ToolRegistry([weather, weather])).toThrow("A tool named 'weather' is already registered");
  });
});

describe('defineTool refuses a parameter schema that is not an object: a tool\'s arguments are a JSON object', () => {
  const tool = (parameters: z.ZodType) => defineTool({ name: 't', description: '', parameters, execute: () => 'ok' });

  it.each([
    ['z.string()', z.string(), /'string'/],
    ['z.number()', z.number(), /'number'/],
    ['z.array(z.string())', z.array(z.string()), /'array'/],
    ['z.boolean()', z.boolean(), /'boolean'/],
    ['z.union of an object and a string', z.union([z.object({ a: z.string() }), z.string()]), /object \| string/],
    ['z.any()', z.any(), /without a type/],
    ['z.string().transform(…) (its input is a string)', z.string().transform((s) => ({ s })), /'string'/],
  ])('%s is a ConfigurationError at defineTool', (_name, parameters, message) => {
    expect(() => tool(parameters)).toThrow(ConfigurationError);
    expect(() => tool(parameters)).toThrow(/Tool 't': parameters must be an object schema/);
    expect(() => tool(parameters)).toThrow(message);
  });

  it.each([
    ['z.object', z.object({ a: z.string() }), { a: 'x' }],
    ['z.looseObject', z.looseObject({ a: z.string() }), { a: 'x', more: 1 }],
    ['z.strictObject', z.strictObject({ a: z.string() }), { a: 'x' }],
    ['z.record', z.record(z.string(), z.number()), { n: 1 }],
    ['a union of objects', z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]), { b: 1 }],
    ['a discriminated union', z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b'), n: z.number() })]), { k: 'b', n: 1 }],
    ['an intersection of objects', z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })), { a: 'x', b: 1 }],
    ['an intersection with z.any()', z.intersection(z.object({ a: z.string() }), z.any()), { a: 'x' }],
    ['a pipe whose input is an object', z.object({ a: z.string() }).transform(({ a }) => ({ a: a.trim() })), { a: ' x ' }],
    ['z.preprocess into an object', z.preprocess((x) => x, z.object({ a: z.string() })), { a: 'x' }],
    ['a refined object with a default', z.object({ a: z.string() }).refine(() => true).default({ a: 'x' }), { a: 'y' }],
    ['a nullable object', z.object({ a: z.string() }).nullable(), { a: 'x' }],
    ['an object registered with an id ($ref)', z.object({ a: z.string() }).meta({ id: 'define-tool-test-args' }), { a: 'x' }],
  ] as const)('%s is accepted, and its arguments pass', (_name, parameters, args) => {
    const t = tool(parameters);
    expect(t.spec.parameters).toBeDefined();
    expect(t.check(args).ok).toBe(true);
  });
});
