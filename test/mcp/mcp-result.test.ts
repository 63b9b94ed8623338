import { describe, expect, it } from 'vitest';
import { jsonSchemaCheck } from '../../src/mcp/json-schema-check.js';
import { mcpResultToToolResult } from '../../src/mcp/mcp-result.js';
import { mcpToolName } from '../../src/mcp/mcp-tool-name.js';

describe('MCP results map to tool results: text joined, isError failed', () => {
  it('joins text blocks and renders other content as short placeholders', () => {
    const result = mcpResultToToolResult({
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///x', text: 'inline' } },
        { type: 'resource_link', uri: 'file:///y' },
      ],
    });
    expect(result).toEqual({ success: true, output: 'a\n[image: image/png]\ninline\n[resource: file:///y]' });
  });

  it('uses structured content as JSON when there is no text, and keeps it as data', () => {
    expect(mcpResultToToolResult({ content: [], structuredContent: { n: 1 } })).toEqual({ success: true, output: '{"n":1}', data: { n: 1 } });
  });

  it('isError without text still fails with a clear error', () => {
    expect(mcpResultToToolResult({ content: [], isError: true })).toEqual({
      success: false,
      output: '',
      error: 'the MCP tool reported an error without details',
    });
  });
});

describe('MCP tool names are {server}__{tool} and valid provider names', () => {
  it('replaces characters providers reject', () => {
    expect(mcpToolName('gh', 'search.issues/v2')).toBe('gh__search_issues_v2');
  });

  it('cuts names over 64 characters and keeps them unique with a hash', () => {
    const a = mcpToolName('srv', 'x'.repeat(80) + 'a');
    const b = mcpToolName('srv', 'x'.repeat(80) + 'b');
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

describe('MCP arguments get a light JSON Schema check', () => {
  const check = jsonSchemaCheck({
    type: 'object',
    properties: { a: { type: 'integer' }, mode: { enum: ['x', 'y'] }, tags: { type: ['array', 'null'] } },
    required: ['a'],
    additionalProperties: false,
  });

  it('accepts matching arguments as they are', () => {
    const args = { a: 1, mode: 'x', tags: null };
    expect(check(args)).toEqual({ ok: true, value: args });
  });

  it('reports every problem: non-object, missing, wrong type, outside enum, extra key', () => {
    expect(check([])).toEqual({ ok: false, message: 'the arguments must be an object, got array' });
    expect(check({ a: 1.5, mode: 'z', tags: 'no', extra: 1 })).toEqual({
      ok: false,
      message:
        "property 'a' must be integer, got number; property 'mode' must be one of \"x\", \"y\"; " +
        "property 'tags' must be array or null, got string; unexpected property 'extra'",
    });
    expect(check({})).toEqual({ ok: false, message: "missing required property 'a'" });
  });
});
