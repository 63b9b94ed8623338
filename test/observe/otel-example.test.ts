import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '../fixtures/leak-search.js';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

describe('examples/otel.ts', () => {
  it('runs without network and prints the turn span with its chat and execute_tool children', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/otel.ts'], { cwd: root });
    const spans = [...stdout.matchAll(/^span {2}(.+?) {2}\[(\w+) ← (\w+)\]/gm)].map(([, name, id, parent]) => ({ name, id, parent }));
    const root_ = spans.find((s) => s.name === 'invoke_agent briefing');
    expect(root_?.parent).toBe('root');
    expect(spans.filter((s) => s !== root_).map((s) => [s.name, s.parent === root_?.id]).sort()).toEqual([
      ['chat scripted-model', true],
      ['chat scripted-model', true],
      ['execute_tool news', true],
      ['execute_tool stocks', true],
      ['execute_tool weather', true],
    ]);
    expect(stdout).toMatch(/execute_tool stocks .*error\.type="Error"/); // a thrown Error: its class
    expect(stdout).toContain('api_key=[REDACTED]');
    expect(leaksOf(stdout, 'demo-key-123456')).toEqual([]);
    expect(stdout).toContain('answer  Light rain in Oslo');
  });
});
