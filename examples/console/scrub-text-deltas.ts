import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { scrubStream, type StreamScrubber, type TurnEvent } from '../../src/index.js';

/**
 * Scrubs a turn's streamed model text across deltas before the pages see it. The loop scrubs each
 * `text-delta` on its own, so a secret the model streams in two pieces (`ghp_ab…` + `…yz`) passes
 * as two harmless-looking halves that the page joins in one bubble; here the deltas of an
 * iteration go through one `scrubStream`, which holds back what a secret may still continue and
 * releases it scrubbed. Held text is released before the next event that is not text of the same
 * iteration (and before the turn completes or fails), so the page's order stays the turn's order.
 *
 * ```
 * events:   -a----b----c|   a: text-delta 'key ghp_1234', b: text-delta '5678… ok', c: tool-call
 * scrubbed: ----------(tc)| t: text-delta 'key [REDACTED] ok' (held until the text ends), c
 * ```
 *
 * @example
 * ```ts
 * agent.run(input).pipe(scrubTextDeltas()).subscribe((event) => publish(event));
 * ```
 * @return The turn's events with each iteration's text scrubbed as one text.
 */
export function scrubTextDeltas(): MonoTypeOperatorFunction<TurnEvent> {
  return (source) =>
    new Observable<TurnEvent>((subscriber) => {
      let held: { readonly iteration: number; readonly scrubber: StreamScrubber } | undefined;
      const release = (): void => {
        if (held === undefined) return;
        const { iteration, scrubber } = held;
        held = undefined;
        const text = scrubber.flush();
        if (text.length > 0) subscriber.next({ type: 'text-delta', iteration, text });
      };
      return source.subscribe({
        next: (event) => {
          if (event.type !== 'text-delta') {
            release();
            subscriber.next(event);
            return;
          }
          if (held !== undefined && held.iteration !== event.iteration) release();
          held ??= { iteration: event.iteration, scrubber: scrubStream() };
          const text = held.scrubber.push(event.text);
          if (text.length > 0) subscriber.next({ type: 'text-delta', iteration: event.iteration, text });
        },
        error: (err: unknown) => {
          release();
          subscriber.error(err);
        },
        complete: () => {
          release();
          subscriber.complete();
        },
      });
    });
}
