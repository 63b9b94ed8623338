import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** Runs the demo under a pseudo-terminal (script(1)), answers the approval prompt, returns the screen. */
function runOnTerminal(answer: string): Promise<{ code: number | null; screen: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', 'node --import tsx examples/demo.ts', '/dev/null'], {
      cwd: root,
      env: { ...process.env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', RTL_MODEL: '', TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString('utf8');
      if (!answered && screen.includes('[a]lways:')) {
        answered = true;
        child.stdin.write(`${answer}\r`);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, screen }));
  });
}

describe('npm run demo on a terminal asks the operator before the risky call', () => {
  it('y: the file is deleted and the answer says so', async () => {
    const { code, screen } = await runOnTerminal('y');
    expect(code).toBe(0);
    expect(screen).toContain('Approve tool call file_delete (path: notes.txt)?');
    expect(screen).toContain('file_delete: yes, decided by cli');
    expect(screen).toMatch(/└ \[1\] file_delete ✓ executed in \d+ ms: deleted notes\.txt/);
    expect(screen).toContain('I deleted notes.txt as you asked.');
  });

  it('n: the operator denial is the result and nothing is deleted', async () => {
    const { code, screen } = await runOnTerminal('n');
    expect(code).toBe(0);
    expect(screen).toMatch(/└ \[1\] file_delete ✗ denied in \d+ ms: Denied by user\./);
    expect(screen).toContain('I did not delete notes.txt');
  });
});
