import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { POLICY_DENIAL_TEXT } from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/cli-approval-script.ts', import.meta.url));
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const PROMPT = '[y]es / [n]o / [a]lways: ';

/**
 * Drives a child: each time one more prompt shows on `watch`, types the next answer; with
 * `thenEnd`, stdin ends after the last answer (as a shell pipe would). Resolves with everything
 * the child printed once it exits (a safety kill ends a stuck child).
 */
function drive(
  child: ChildProcessWithoutNullStreams,
  answers: string[],
  watch: 'stdout' | 'stderr',
  thenEnd = false,
): Promise<{ out: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    let out = '';
    let seen = '';
    let typed = 0;
    const onPrompt = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const prompts = seen.split(PROMPT).length - 1;
      while (typed < prompts && typed < answers.length) child.stdin.write(`${answers[typed++]}\n`);
      if (thenEnd && typed === answers.length) child.stdin.end();
    };
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child[watch].on('data', onPrompt);
    const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('exit', () => child.stdin.destroy()); // 'close' waits for every stdio stream, ours included
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ out: out.replace(/\r/g, ''), code });
    });
  });
}

const outcomeLines = (out: string) => out.split('\n').filter((l) => /^(OUTCOME|DECISION|DONE|STDIN|ERROR)/.test(l));

describe('CLI front door through a real pseudo-terminal: it asks on the TTY (answers y, n, a)', () => {
  it('under `script`, y runs the call, n denies it, a runs it and allows the tool for the session', async () => {
    const command = `${quote(process.execPath)} --import tsx ${quote(fixture)}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    const { out, code } = await drive(child, ['y', 'n', 'a'], 'stdout');
    expect(code).toBe(0);
    expect(out.split(PROMPT).length - 1).toBe(3);
    expect(out).toContain('Approve tool call deploy (env: one)?');
    expect(outcomeLines(out)).toEqual([
      'STDIN tty',
      'DECISION yes cli',
      'DECISION no cli',
      'DECISION always cli',
      'OUTCOME 0 executed deployed one',
      'OUTCOME 1 denied Denied by user.',
      'OUTCOME 2 executed deployed three',
      'OUTCOME 3 executed deployed four',
      'DONE finished ran=3',
    ]);
  });
});

describe('CLI front door without a terminal falls back to stdin (prompts on stderr)', () => {
  it('in a new session with no controlling terminal, answers come from piped stdin', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], { cwd: root, detached: true, env: { ...process.env, NO_COLOR: '1' } });
    const { out, code } = await drive(child, ['a'], 'stderr', true);
    expect(code).toBe(0);
    expect(outcomeLines(out)).toEqual([
      'STDIN not-a-tty',
      'DECISION always cli',
      'OUTCOME 0 executed deployed one',
      'OUTCOME 1 executed deployed two',
      'OUTCOME 2 executed deployed three',
      'OUTCOME 3 executed deployed four',
      'DONE finished ran=4',
    ]);
  });

  it('closed stdin (EOF) is no for every prompt, denied by policy: no operator answered', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], { cwd: root, detached: true, env: { ...process.env, NO_COLOR: '1' } });
    child.stdin.end();
    const { out, code } = await drive(child, [], 'stderr');
    expect(code).toBe(0);
    expect(outcomeLines(out).filter((l) => l.startsWith('DECISION'))).toEqual(Array(4).fill('DECISION no policy'));
    expect(outcomeLines(out).filter((l) => l.startsWith('OUTCOME'))).toEqual([0, 1, 2, 3].map((slot) => `OUTCOME ${slot} denied ${POLICY_DENIAL_TEXT}`));
  });
});
