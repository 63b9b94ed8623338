import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Durable from '../../src/durable/index.js';
import type * as Lib from '../../src/index.js';
import type * as Testing from '../../src/testing/index.js';

/** The library from src/ (through tsx) or from the bench's build of it. */
export async function loadLibrary(from: string): Promise<{ lib: typeof Lib; testing: typeof Testing; durable: typeof Durable }> {
  if (from === 'src') {
    return { lib: await import('../../src/index.js'), testing: await import('../../src/testing/index.js'), durable: await import('../../src/durable/index.js') };
  }
  const url = (entry: string) => pathToFileURL(join(from, `${entry}.js`)).href;
  return {
    lib: (await import(url('index'))) as typeof Lib,
    testing: (await import(url('testing/index'))) as typeof Testing,
    durable: (await import(url('durable/index'))) as typeof Durable,
  };
}

/** Epoch milliseconds with sub-millisecond precision, comparable across the processes of one machine. */
export const now = (): number => performance.timeOrigin + performance.now();

