import { concat, defer, filter, map, mergeMap, type OperatorFunction, pipe } from 'rxjs';
import { textLines } from './text-lines.js';
import { scrubCredentials } from '../results/scrub.js';
import { scrubValue } from '../results/scrub-value.js';
import type { SlotOutcome, TurnEvent } from '../core/events.js';

/** How progress lines are rendered. */
export interface ProgressLineOptions {
  /** Show a short, scrubbed preview of the arguments on the start line. Default true. */
  readonly showArguments?: boolean;
  /** Longest argument preview, in characters. Default 80. */
  readonly maxArgumentChars?: number;
  /** Longest failure reason, in characters. Default 200. */
  readonly maxReasonChars?: number;
  /**
   * Also show the model's text, as `💬 {line}` lines (`progressLines` only), scrubbed with a
   * window carried across deltas so a secret split between two deltas is redacted whole.
   * Default false.
   */
  readonly showText?: boolean;
}

const FAILURE_LABEL: Record<SlotOutcome, string> = {
  executed: 'done',
  replaced: 'replaced by the operator',
  failed: 'failed',
  denied: 'denied',
  'hook-cancelled': 'cancelled by a hook',
  deduplicated: 'skipped as a duplicate',
  interrupted: 'interrupted',
  unknown: 'unknown tool',
  excluded: 'not available',
  'invalid-arguments': 'invalid arguments',
};

/**
 * The progress line of one event, or undefined when the event has none: a start line per
 * `tool-call` of a call that runs (`executes: true`), a completion line per `tool-result`. A slot
 * decided by preparation (denied, deduplicated, unknown, …) never starts, so it has no start
 * line, only its completion line naming why (`❌ file_delete denied: …`). Failures carry their
 * scrubbed reason, cut to 200 characters. Everything shown is scrubbed before it is cut.
 *
 * @example
 * ```ts
 * progressLine({ type: 'tool-call', iteration: 1, slot: 0, id: 'c1', name: 'weather', args: { city: 'Oslo' }, executes: true });
 * // '⏳ weather {"city":"Oslo"}'
 * ```
 */
export function progressLine(event: TurnEvent, options: ProgressLineOptions = {}): string | undefined {
  if (event.type === 'tool-call') {
    if (!event.executes) return undefined; // it never runs: its completion line says why
    const name = scrubCredentials(event.name);
    if (options.showArguments === false) return `⏳ ${name}`;
    const preview = cut(scrubCredentials(json(scrubValue(event.args))), options.maxArgumentChars ?? 80);
    return preview.length > 0 && preview !== '{}' ? `⏳ ${name} ${preview}` : `⏳ ${name}`;
  }
  if (event.type !== 'tool-result') return undefined;
  const name = scrubCredentials(event.name);
  const duration = `${Math.round(event.durationMs)} ms`;
  if (event.success) {
    return event.outcome === 'executed' ? `✅ ${name} (${duration})` : `✅ ${name} (${FAILURE_LABEL[event.outcome]})`;
  }
  const reason = cut(scrubCredentials(event.output.replace(/^Error:\s*/, '')).replace(/\s+/g, ' ').trim(), options.maxReasonChars ?? 200);
  const label = FAILURE_LABEL[event.outcome] ?? event.outcome;
  return reason.length > 0 ? `❌ ${name} ${label}: ${reason}` : `❌ ${name} ${label}`;
}

/**
 * Turns a turn's events into progress lines for chat surfaces (a start and a completion line
 * per call that runs, only a completion line for one that never runs; in the order the calls
 * start and finish).
 *
 * ```
 * events: i-c-c--r-r--d|
 * lines:  --s-s--e-e---|
 * ```
 * @example
 * ```ts
 * agent.run({ message }).pipe(progressLines()).subscribe((line) => chat.post(line));
 * ```
 */
export function progressLines(options: ProgressLineOptions = {}): OperatorFunction<TurnEvent, string> {
  if (options.showText !== true) {
    return pipe(
      map((event: TurnEvent) => progressLine(event, options)),
      filter((line): line is string => line !== undefined),
    );
  }
  return (source) =>
    defer(() => {
      const text = textLines();
      return source.pipe(
        mergeMap((event: TurnEvent) => {
          const said = event.type === 'text-delta' ? text.push(event.text) : text.flush();
          const line = progressLine(event, options);
          return [...said.map((l) => `💬 ${l}`), ...(line !== undefined ? [line] : [])];
        }),
        (lines$) => concat(lines$, defer(() => text.flush().map((l) => `💬 ${l}`))),
      );
    });
}

/** Cuts text to `max` characters (never inside a surrogate pair), marking the cut with `…`. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
