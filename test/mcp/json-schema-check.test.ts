import { beforeAll, describe, expect, it } from 'vitest';
import { mcpTools, type Tool } from '../../src/index.js';
import { jsonSchemaCheck } from '../../src/mcp/json-schema-check.js';
import { fixtureForSuite } from './fixture-client.js';

/**
 * The MCP argument check reads only own properties: a key the model sends is judged by what the
 * arguments hold themselves, and a key the schema declares by what the schema holds itself.
 * Names inherited from `Object.prototype` must neither pass as declared nor count as present.
 */

const INHERITED = [
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
];

const closed = jsonSchemaCheck({ type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false });

/** Arguments as the loop gets them: decoded from the model's JSON (so `__proto__` is an own key). */
const decoded = (key: string): unknown => JSON.parse(`{"path":"a.txt",${JSON.stringify(key)}:{"approved":true}}`);

describe('additionalProperties: false refuses keys the schema does not itself declare', () => {
  it.each(INHERITED)('an extra key %s is unexpected', (key) => {
    const result = closed(decoded(key));
    expect(result).toEqual({ ok: false, message: `unexpected property '${key}'` });
  });

  it.each(INHERITED)('an extra key %s with a primitive value is unexpected too', (key) => {
    const args = JSON.parse(`{${JSON.stringify(key)}:"x"}`);
    expect(closed(args).ok).toBe(false);
  });

  it('declared keys still pass, and a schema that declares an inherited name accepts it', () => {
    expect(closed({ path: 'a.txt' })).toEqual({ ok: true, value: { path: 'a.txt' } });
    const declaresIt = jsonSchemaCheck(JSON.parse('{"type":"object","properties":{"constructor":{"type":"string"}},"additionalProperties":false}'));
    expect(declaresIt({ constructor: 'x' }).ok).toBe(true);
    expect(declaresIt({ toString: 'x' }).ok).toBe(false);
  });
});

describe('required keys are present only when the arguments hold them themselves', () => {
  it.each(INHERITED.filter((k) => k !== '__proto__'))('a missing required %s is reported', (key) => {
    const check = jsonSchemaCheck({ type: 'object', properties: { [key]: {} }, required: [key] });
    expect(check({})).toEqual({ ok: false, message: `missing required property '${key}'` });
    expect(check(JSON.parse(`{${JSON.stringify(key)}:1}`)).ok).toBe(true);
  });

  it('a missing required __proto__ is reported', () => {
    const check = jsonSchemaCheck(JSON.parse('{"type":"object","properties":{"__proto__":{}},"required":["__proto__"]}'));
    expect(check({})).toEqual({ ok: false, message: "missing required property '__proto__'" });
    expect(check(JSON.parse('{"__proto__":1}')).ok).toBe(true);
  });
});

describe('typed properties with inherited names are checked on the own value only', () => {
  it.each(['toString', 'valueOf', 'constructor', 'hasOwnProperty'])('an absent optional %s is fine; a present one is type-checked', (key) => {
    const check = jsonSchemaCheck({ type: 'object', properties: { [key]: { type: 'string', enum: ['a', 'b'] } } });
    expect(check({})).toEqual({ ok: true, value: {} });
    expect(check({ [key]: 'a' }).ok).toBe(true);
    expect(check({ [key]: 3 })).toEqual({ ok: false, message: `property '${key}' must be string, got number` });
  });

  it('a schema object with inherited entries declares nothing it does not hold', () => {
    const schema = Object.assign(Object.create({ additionalProperties: true, required: ['x'] }) as object, {
      type: 'object',
      properties: {},
    });
    const check = jsonSchemaCheck(schema);
    expect(check({})).toEqual({ ok: true, value: {} });
  });
});

describe('the check an MCP tool carries refuses inherited names', () => {
  // a real server process (the fixture) lists the tool with this schema
  const inputSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false } as const;
  const fixture = fixtureForSuite({ baseTools: false, tools: [{ name: 'write', inputSchema }], listing: {} });
  let tool: Tool;
  beforeAll(async () => {
    [tool] = await mcpTools(fixture.client, { server: 'fs' });
  });

  it('the tool carries the schema the server listed', () => {
    expect([tool.name, tool.spec.parameters]).toEqual(['fs__write', inputSchema]);
  });

  it.each(INHERITED)('%s', (key) => {
    const check = tool.check as (args: unknown) => { ok: boolean; message?: string };
    expect(check(decoded(key))).toEqual({ ok: false, message: `unexpected property '${key}'` });
  });
});
