import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';

/** Deletes a file in `sandbox` (only there: the path is reduced to its base name). Risky: needs approval. */
export function fileDelete(sandbox: string) {
  return defineTool({
    name: 'file_delete',
    description: 'Deletes a file from the scratch folder. Needs the operator\'s approval.',
    parameters: z.object({ path: z.string().min(1) }),
    risk: 'write',
    execute: async ({ path }) => {
      await rm(join(sandbox, basename(path)));
      return `deleted ${basename(path)}`;
    },
  });
}
