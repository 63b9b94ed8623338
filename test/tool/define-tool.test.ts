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
