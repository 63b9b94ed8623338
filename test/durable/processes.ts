import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestDatabase } from './test-database.js';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));

/** A child process of the durable suites: its stdout lines as they come, and a way to wait for one. */
export interface Child {
  readonly process: ChildProcess;
  readonly lines: string[];
  /** Resolves with the first line (seen or to come) that `match` accepts; rejects if the process exits first. */
  line(match: (line: string) => boolean): Promise<string>;
  readonly exited: Promise<number | null>;
}

export function startChild(db: TestDatabase, args: readonly string[], env: Record<string, string> = {}): Child {
  return startScript(CHILD, args, { RTL_DB_URL: db.url, RTL_DB_BACKEND: db.backend, ...env });
}

/** Runs a TypeScript file in a Node process of its own (through tsx), in `cwd` if given. */
export function startScript(script: string, args: readonly string[], env: Record<string, string> = {}, cwd?: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd,
  });
  const lines: string[] = [];
  const waiters = new Set<{ match: (line: string) => boolean; resolve: (line: string) => void }>();
  let stderr = '';
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let at: number;
    while ((at = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      lines.push(line);
      for (const w of [...waiters]) if (w.match(line)) (waiters.delete(w), w.resolve(line));
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    lines,
    exited,
    line(match) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        void exited.then((code) => {
          if (waiters.delete(waiter)) reject(new Error(`child ${[script, ...args].join(' ')} exited (${code}) first:\n${stderr}`));
        });
      });
    },
  };
}

/** Runs a child to its end and parses its last stdout line as JSON. */
export async function runChild<T>(db: TestDatabase, args: readonly string[]): Promise<T> {
  const child = startChild(db, args);
  const code = await child.exited;
  const last = child.lines.filter((l) => l.startsWith('{')).pop();
  if (code !== 0 || last === undefined) throw new Error(`child ${args.join(' ')} exited with ${code}: ${child.lines.join('\n')}`);
  return JSON.parse(last) as T;
}
