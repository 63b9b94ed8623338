import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

describe('npm run demo', () => {
  it('prints every card opening and closing, the handled failure, the policy denial without a terminal, and the final answer', async () => {
    const env = { ...process.env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', RTL_MODEL: '' };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], { cwd: root, env });
    const opened = stdout.match(/┌ \[\d\] \w+/g) ?? [];
    const closed = stdout.match(/└ \[\d\] \w+/g) ?? [];
    expect(opened).toHaveLength(5);
    expect(closed.sort()).toEqual(opened.map((o) => o.replace('┌', '└')).sort());
    expect(stdout).toMatch(/└ \[0\] file_read ✗ failed in \d+ ms: Error: no such file: package\.jsonn/);
    expect(stdout).toMatch(/└ \[1\] calculator ✓ executed in \d+ ms: 409\.5/);
    expect(stdout).toMatch(/17\.5% of 2,340 is 409\.5/);
    expect(stdout).toMatch(/package\.json has \d+ lines/);
    expect(stdout).toContain('approval: non-interactive (no terminal)');
    expect(stdout).toContain('file_delete: no, decided by policy');
    expect(stdout).toMatch(/└ \[1\] file_delete ✗ denied in \d+ ms: Not executed: this call needs approval/);
    expect(stdout).toContain('I did not delete notes.txt');
    expect(stdout).toContain('done (final) after 3 iterations');
  });
});
