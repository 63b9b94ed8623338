import { concatMap, type OperatorFunction, scan } from 'rxjs';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import { markupDelta, markupEnd, OUTSIDE_MARKUP, type MarkupState } from '../provider/text-protocol/markup-delta.js';

/**
 * Keeps the text protocol's markup (`<tool_call>…</tool_call>`, `<think>…</think>`, their
 * aliases) out of a request's `text-delta` events: each delta carries the text around the markup
 * (`markupDelta`), a possible opening tag is held back until it resolves, and held text that
 * never became a tag goes out in one last delta right before the response. Every other value
 * passes as it is; the response keeps the model's text, markup and all, for the parser.
 *
 * ```
 * source:  -a--b--c--r|      a: 'Hi <to', b: 'ol_call>{…}</tool', c: '_call> ok', r: the response
 * result:  -a-----c--r|      a: 'Hi ', c: ' ok' (b shows nothing)
 * ```
 * @example
 * ```ts
 * callProvider(it, req).pipe(hideMarkup(), continueWith((response) => of(parseResponse(it, response))));
 * ```
 * @return The same values, with markup-free text deltas.
 */
export function hideMarkup<R extends object>(): OperatorFunction<TurnEvent | R, TurnEvent | R> {
  return (source) =>
    source.pipe(
      scan((shown: Shown<R>, value: TurnEvent | R) => nextShown(shown, value), { markup: OUTSIDE_MARKUP, iteration: 0, out: [] }),
      concatMap((shown) => shown.out),
    );
}

/** The markup state after a value, the iteration of the last delta, and what goes out for the value. */
interface Shown<R> {
  readonly markup: MarkupState;
  readonly iteration: number;
  readonly out: readonly (TurnEvent | R)[];
}

function nextShown<R extends object>(shown: Shown<R>, value: TurnEvent | R): Shown<R> {
  if (isTurnEvent(value)) {
    if (value.type !== 'text-delta') return { ...shown, out: [value] };
    const { state, text } = markupDelta(shown.markup, value.text);
    return { markup: state, iteration: value.iteration, out: text.length > 0 ? [{ ...value, text }] : [] };
  }
  // the response: held text that never became a tag goes out first
  const rest = markupEnd(shown.markup);
  const out: (TurnEvent | R)[] = rest.length > 0 ? [{ type: 'text-delta', iteration: shown.iteration, text: rest }, value] : [value];
  return { markup: OUTSIDE_MARKUP, iteration: shown.iteration, out };
}
