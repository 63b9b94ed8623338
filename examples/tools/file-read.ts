import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';

/** Reads a text file under `root`; paths that leave it are refused. */
export function fileRead(root: string) {
  return defineTool({
    name: 'file_read',
    description: 'Reads a UTF-8 text file of this repository. Returns its line count and its first lines.',
    parameters: z.object({
      path: z.string().min(1).describe('relative to the repository root'),
      maxLines: z.number().int().positive().max(200).default(5),
    }),
    risk: 'read',
    execute: async ({ path, maxLines }, { signal }) => {
      const full = resolve(root, path);
      const rel = relative(root, full);
      if (rel.startsWith('..') || resolve(root, rel) !== full) {
        return { success: false, output: '', error: `'${path}' is outside the repository` };
      }
      let text: string;
      try {
        text = await readFile(full, { encoding: 'utf8', signal });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return { success: false, output: '', error: `no such file: ${rel}` };
        if (code === 'EISDIR') return { success: false, output: '', error: `${rel} is a directory` };
        throw err;
      }
      const lines = text.split('\n');
      const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
      return `${rel}: ${count} lines\n${lines.slice(0, maxLines).join('\n')}`;
    },
  });
}
