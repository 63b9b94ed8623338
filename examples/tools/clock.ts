import { z } from 'zod';
import { defineTool } from '../../src/index.js';

/** The current date and time in a time zone (IANA name). */
export const clock = defineTool({
  name: 'clock',
  description: 'Tells the current date and time in an IANA time zone such as "Asia/Tokyo".',
  parameters: z.object({ timeZone: z.string().default('UTC') }),
  risk: 'read',
  execute: ({ timeZone }) => {
    try {
      const text = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'long', timeZone }).format(new Date());
      return `${text} (${timeZone})`;
    } catch {
      return { success: false, output: '', error: `unknown time zone '${timeZone}'` };
    }
  },
});
