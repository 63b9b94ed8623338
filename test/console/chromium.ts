import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

/** Debian's Chromium, used whenever the machine has it. */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * Our own launch arguments, for either browser: headless, nothing that reaches the network on its
 * own. Never @sparticuz/chromium's `args`: they include `--disable-web-security` (and turn off site
 * isolation), which would let the console's CSP and same-origin tests pass for the wrong reason.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where the browser comes from: `auto` prefers Debian's, `npm` always takes the npm-shipped one. */
export type ChromiumSource = 'auto' | 'npm';

/**
 * The Chromium that ships inside the `@sparticuz/chromium` dev dependency, unpacked once into
 * `node_modules/.cache/` (one folder per package version), with the libraries the package ships
 * beside it (NSS, NSPR, expat: `al2023/lib`, which a machine with only Node lacks; see
 * `npmChromiumEnv`). The package itself unpacks into `os.tmpdir()` and trusts any `chromium` file
 * it finds there, so it runs in a child process with TMPDIR set to a fresh folder, which then takes
 * its final name with one `rename`: test files in parallel workers never launch a half-written
 * binary, and a stale `/tmp/chromium` is never used. The package unpacks its libraries only where
 * it detects Amazon Linux 2023 (a Lambda runtime); the child says it runs there.
 *
 * @example
 * ```ts
 * const executablePath = await npmChromium();
 * const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
 * ```
 */
export async function npmChromium(): Promise<string> {
  const pkg = join(root, 'node_modules/@sparticuz/chromium');
  const { version } = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8')) as { version: string };
  const cache = join(root, 'node_modules/.cache/rtl-chromium');
  const home = join(cache, `${version}+libs`); // a folder of an older layout (no libraries) is not reused
  const binary = join(home, 'chromium');
  if (existsSync(binary)) return binary;
  await mkdir(cache, { recursive: true });
  const staging = await mkdtemp(join(cache, `${version}-`));
  try {
    const unpack = `import('@sparticuz/chromium').then(async (m) => console.log(await m.default.executablePath()))`;
    const env = { ...process.env, TMPDIR: staging, AWS_LAMBDA_JS_RUNTIME: 'nodejs20.x' };
    const { stdout } = await run(process.execPath, ['-e', unpack], { cwd: root, env });
    if (stdout.trim() !== join(staging, 'chromium')) throw new Error(`@sparticuz/chromium unpacked to ${stdout.trim()}`);
    if (!existsSync(join(staging, 'al2023/lib/libnss3.so'))) throw new Error('@sparticuz/chromium unpacked no libraries');
    // the package's fonts.conf names Lambda's folders (/tmp/fonts): ours names its fonts where they
    // end up, after the machine's own configuration where there is one
    const fonts = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      '<fontconfig>',
      '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
      `  <dir>${join(home, 'fonts')}</dir>`,
      `  <cachedir>${join(home, 'fonts-cache')}</cachedir>`,
      '</fontconfig>',
    ];
    await writeFile(join(staging, 'fonts.conf'), `${fonts.join('\n')}\n`);
    await rename(staging, home);
  } catch (error) {
    if (!existsSync(binary)) throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return binary;
}

/**
 * The environment the npm-shipped binary runs in: its own libraries first on the loader's path
 * (what the package does on Lambda), and its own fonts, so it starts on a machine that has glibc
 * and nothing else of Chromium's.
 *
 * @example
 * ```ts
 * const browser = await chromium.launch({ executablePath, env: npmChromiumEnv(executablePath), args: [...CHROMIUM_ARGS] });
 * ```
 */
export function npmChromiumEnv(binary: string): Record<string, string | undefined> {
  const home = dirname(binary);
  const libs = join(home, 'al2023/lib');
  const inherited = process.env.LD_LIBRARY_PATH;
  return { ...process.env, LD_LIBRARY_PATH: inherited ? `${libs}:${inherited}` : libs, FONTCONFIG_FILE: join(home, 'fonts.conf') };
}

/**
 * The browser binary: Debian's `/usr/bin/chromium` where it exists (unless `source` is `npm`),
 * else the npm-shipped one, so `npm ci && npm test` needs nothing but Node. `systemPath` is where
 * the system binary is looked for (a test passes a missing path to act as a Node-only machine).
 *
 * @example
 * ```ts
 * const path = await chromiumExecutable(); // '/usr/bin/chromium' or node_modules/.cache/…/chromium
 * ```
 */
export async function chromiumExecutable(source: ChromiumSource = 'auto', systemPath: string = SYSTEM_CHROMIUM): Promise<string> {
  if (source === 'auto' && existsSync(systemPath)) return systemPath;
  return npmChromium();
}

/**
 * Headless Chromium with our own arguments (web security on), plus `extraArgs` (a test's
 * `--host-resolver-rules`); a system binary that fails to start falls back to the npm-shipped one.
 *
 * @example
 * ```ts
 * const browser = await launchChromium();
 * const page = await browser.newPage();
 * ```
 */
export async function launchChromium(
  source: ChromiumSource = 'auto',
  systemPath: string = SYSTEM_CHROMIUM,
  extraArgs: readonly string[] = [],
): Promise<Browser> {
  const executablePath = await chromiumExecutable(source, systemPath);
  const args = [...CHROMIUM_ARGS, ...extraArgs];
  if (executablePath !== systemPath) return launchNpmChromium(executablePath, args);
  try {
    return await chromium.launch({ executablePath, args });
  } catch {
    // a system binary that is there but does not start (a broken install): the npm-shipped one
    return launchNpmChromium(await npmChromium(), args);
  }
}

const launchNpmChromium = (executablePath: string, args: string[]): Promise<Browser> =>
  chromium.launch({ executablePath, env: npmChromiumEnv(executablePath), args });
