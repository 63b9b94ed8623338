import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumExecutable, launchChromium, npmChromiumEnv, SYSTEM_CHROMIUM } from './chromium.js';

/** The program interpreter (the dynamic loader) an ELF64 little-endian executable names in its PT_INTERP header. */
async function elfInterpreter(path: string): Promise<string> {
  const elf = await readFile(path);
  const phoff = Number(elf.readBigUInt64LE(0x20));
  const phentsize = elf.readUInt16LE(0x36);
  const phnum = elf.readUInt16LE(0x38);
  for (let i = 0; i < phnum; i++) {
    const ph = phoff + i * phentsize;
    if (elf.readUInt32LE(ph) !== 3) continue; // PT_INTERP
    const offset = Number(elf.readBigUInt64LE(ph + 8));
    const size = Number(elf.readBigUInt64LE(ph + 32));
    return elf.toString('latin1', offset, offset + size).replace(/\0+$/, '');
  }
  throw new Error(`${path} names no program interpreter`);
}

/** A loopback server answering every request with `respond`'s body and headers. */
async function serve(respond: (path: string) => { body: string; headers?: Record<string, string> }): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const { body, headers } = respond(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const page = (other: string) => `<!doctype html><body>
<script nonce="n0nce">
  document.body.dataset.nonced = 'ran';
  fetch('${other}/data').then((r) => r.text()).then(
    (t) => { document.body.dataset.crossOrigin = 'read:' + t; },
    () => { document.body.dataset.crossOrigin = 'blocked'; });
</script>
<script>document.body.dataset.inline = 'ran';</script>
</body>`;

let browser: Browser;
let app: { server: Server; origin: string };
let other: { server: Server; origin: string };

beforeAll(async () => {
  browser = await launchChromium('npm');
  other = await serve(() => ({ body: 'secret', headers: { 'content-type': 'text/plain' } }));
  app = await serve(() => ({ body: page(other.origin), headers: { 'content-security-policy': "script-src 'nonce-n0nce'" } }));
});
afterAll(async () => {
  await browser?.close();
  app?.server.close();
  other?.server.close();
});

describe('the npm-shipped Chromium (the fallback when /usr/bin/chromium is missing)', () => {
  it('comes from @sparticuz/chromium, unpacked under node_modules/.cache, whatever the machine has', async () => {
    const path = await chromiumExecutable('npm');
    expect(path).not.toBe(SYSTEM_CHROMIUM);
    expect(path).toContain('node_modules/.cache/rtl-chromium/');
    expect(existsSync(path)).toBe(true);
    expect(browser.version()).toMatch(/^143\./);
  });

  it('on a machine with only Node (no system binary at its path), auto takes the npm-shipped one, which launches', async () => {
    const missing = '/nonexistent/usr/bin/chromium';
    const path = await chromiumExecutable('auto', missing);
    expect(path).toBe(await chromiumExecutable('npm'));
    const fallback = await launchChromium('auto', missing);
    try {
      expect(fallback.version()).toMatch(/^143\./);
      const tab = await fallback.newPage();
      await tab.goto(app.origin);
      await expect(tab.evaluate(() => document.body.dataset.nonced)).resolves.toBe('ran');
    } finally {
      await fallback.close();
    }
  });

  it('loads NSS, NSPR and expat from its own folder, and from the machine only glibc and libgcc (no ldd needed)', async () => {
    const path = await chromiumExecutable('npm');
    // the dynamic loader the binary names, asked to list what it would load (what `ldd` does, without
    // `ldd` itself: a bash script that a machine with only Node may lack)
    const loader = await elfInterpreter(path);
    const { stdout } = await promisify(execFile)(loader, ['--list', path], { env: npmChromiumEnv(path) as NodeJS.ProcessEnv });
    expect(stdout).not.toContain('not found');
    const own = join(dirname(path), 'al2023/lib');
    const loaded = new Map<string, string>();
    for (const line of stdout.split('\n')) {
      const [name, resolved] = line.trim().split(/ => | \(/);
      if (name) loaded.set(basename(name), resolved ?? '');
    }
    for (const name of ['libnss3.so', 'libnssutil3.so', 'libnspr4.so', 'libplc4.so', 'libplds4.so', 'libexpat.so.1']) {
      expect(loaded.get(name)).toBe(join(own, name));
    }
    // the rest is what every Linux that runs Node has
    const fromMachine = [...loaded].filter(([, resolved]) => !resolved.startsWith(own)).map(([name]) => name);
    const base = new Set(['linux-vdso.so.1', 'ld-linux-x86-64.so.2', 'libc.so.6', 'libm.so.6', 'libdl.so.2', 'libpthread.so.0', 'libgcc_s.so.1']);
    expect(fromMachine.filter((name) => !base.has(name))).toEqual([]);
  });

  it('a system path that exists but does not start falls back to the npm-shipped one', async () => {
    const broken = new URL('./chromium.ts', import.meta.url).pathname; // exists, is no browser
    const fallback = await launchChromium('auto', broken);
    try {
      expect(fallback.version()).toMatch(/^143\./);
    } finally {
      await fallback.close();
    }
  });

  it('auto prefers Debian\'s Chromium where it exists, else the npm-shipped one', async () => {
    const path = await chromiumExecutable();
    expect(path === SYSTEM_CHROMIUM).toBe(existsSync(SYSTEM_CHROMIUM));
  });

  it('keeps web security on: a CSP-blocked inline script does not run, a cross-origin read is refused', async () => {
    const tab = await browser.newPage();
    try {
      const violations: string[] = [];
      tab.on('console', (message) => {
        if (message.type() === 'error') violations.push(message.text());
      });
      await tab.goto(`${app.origin}/`);
      await tab.waitForFunction(() => document.body.dataset.crossOrigin !== undefined);
      const data = await tab.evaluate(() => ({ ...document.body.dataset }));
      expect(data.nonced).toBe('ran');
      expect(data.inline).toBeUndefined();
      expect(data.crossOrigin).toBe('blocked');
      expect(violations.some((text) => text.includes('Content Security Policy'))).toBe(true);
    } finally {
      await tab.close();
    }
  });
});
