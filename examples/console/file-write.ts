import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';

/**
 * The console's risky tool: writes a UTF-8 file under `root` (paths that leave it are
 * refused). Its output echoes what was written, so the page shows the content as text.
 *
 * @example
 * ```ts
 * const write = fileWrite(await mkdtemp(join(tmpdir(), 'console-')));
 * ```
 */
export function fileWrite(root: string) {
  return defineTool({
    name: 'file_write',
    description: 'Writes a UTF-8 text file in the sandbox folder, replacing it if it exists.',
    parameters: z.object({
      path: z.string().min(1).describe('relative to the sandbox folder'),
      content: z.string(),
    }),
    risk: 'write',
    execute: async ({ path, content }, { signal }) => {
      const full = resolve(root, path);
      const rel = relative(root, full);
      if (rel === '' || rel.startsWith('..') || resolve(root, rel) !== full) {
        return { success: false, output: '', error: `'${path}' is outside the sandbox folder` };
      }
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, content, { encoding: 'utf8', signal });
      return `Wrote ${Buffer.byteLength(content)} bytes to ${rel}:\n${content}`;
    },
  });
}
