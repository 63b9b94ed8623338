import { scrubStream, type StreamScrubber } from '../results/scrub-stream.js';

/** Collects streamed model text into whole, scrubbed lines (`textLines`). */
export interface TextLines {
  /** Adds a text delta; returns the lines it completed. */
  push(text: string): string[];
  /** Ends the text (a tool call, a new iteration, the end of the turn); returns the rest as lines. */
  flush(): string[];
}

/**
 * Model text as lines for a chat surface: deltas go through one `scrubStream` (so a secret split
 * across deltas is redacted whole), then are cut at line breaks; blank lines are dropped.
 *
 * @example
 * ```ts
 * const lines = textLines();
 * lines.push('Your key is sk-abc');            // []
 * lines.push('defghijklmnopqrstu.\nDone.');    // ['Your key is [REDACTED].']
 * lines.flush();                               // ['Done.']
 * ```
 */
export function textLines(): TextLines {
  let scrubber: StreamScrubber = scrubStream();
  let partial = '';
  const split = (released: string, end: boolean): string[] => {
    const parts = (partial + released).split('\n');
    partial = end ? '' : (parts.pop() ?? '');
    return parts.map((line) => line.trim()).filter((line) => line.length > 0);
  };
  return {
    push: (text) => split(scrubber.push(text), false),
    flush: () => {
      const rest = scrubber.flush();
      scrubber = scrubStream();
      return split(rest, true);
    },
  };
}
