import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

describe('npm run console', () => {
  it('starts the console on the demo agent, prints the URL with its token, and stops cleanly on SIGTERM', async () => {
    const env = { ...process.env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', RTL_MODEL: '' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/console/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(child, 'exit');
    try {
      let stdout = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          stdout += chunk;
          const found = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32})\n/.exec(stdout);
          if (found) resolve(found[1]);
        });
        child.once('exit', (code) => reject(new Error(`the console exited with ${code} before printing its URL:\n${stdout}`)));
      });
      const sandbox = /file_write writes into (.+)\n/.exec(stdout)?.[1] ?? '';
      expect(existsSync(sandbox)).toBe(true);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<main id="conversation"');
      expect((await fetch(new URL(url).origin)).status).toBe(401);
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(existsSync(sandbox)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
