import { concat, from, lastValueFrom, materialize, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/index.js';
import { scrubTextDeltas } from '../../examples/console/scrub-text-deltas.js';
import { leakedWindows } from '../fixtures/secrets-corpus.js';
import { splitSecrets } from './split-secrets.js';

const delta = (iteration: number, text: string): TurnEvent => ({ type: 'text-delta', iteration, text });
const textOf = (events: readonly TurnEvent[], iteration: number) =>
  events.flatMap((e) => (e.type === 'text-delta' && e.iteration === iteration ? [e.text] : [])).join('');

describe('scrubTextDeltas: the console’s text goes through one scrubStream per iteration', () => {
  const [a, b] = splitSecrets();

  it('a new iteration’s text first releases what the last one held, scrubbed', async () => {
    const events = await lastValueFrom(
      from([delta(1, a.deltas[0]), delta(1, a.deltas[1]), delta(2, b.deltas[0]), delta(2, b.deltas[1])]).pipe(scrubTextDeltas(), toArray()),
    );
    expect(leakedWindows(textOf(events, 1), a.sample.secret)).toEqual([]);
    expect(leakedWindows(textOf(events, 2), b.sample.secret)).toEqual([]);
    expect(textOf(events, 1)).toContain('[REDACTED]');
    expect(textOf(events, 2)).toContain('[REDACTED]');
    const iterations = events.map((e) => (e.type === 'text-delta' ? e.iteration : 0));
    expect(iterations).toEqual([...iterations].sort());
  });

  it('a failing turn still gets its held text, scrubbed, before the error', async () => {
    const notes = await lastValueFrom(
      concat(from([delta(1, a.deltas[0]), delta(1, a.deltas[1])]), throwError(() => new Error('boom'))).pipe(scrubTextDeltas(), materialize(), toArray()),
    );
    expect(notes.at(-1)).toMatchObject({ kind: 'E', error: new Error('boom') });
    const text = notes.flatMap((n) => (n.kind === 'N' && n.value?.type === 'text-delta' ? [n.value.text] : [])).join('');
    expect(text).toContain('[REDACTED]');
    expect(leakedWindows(text, a.sample.secret)).toEqual([]);
  });

  it('events that are not text pass unchanged and in place', async () => {
    const start: TurnEvent = { type: 'iteration', iteration: 1 };
    const events = await lastValueFrom(from([start, delta(1, 'plain words '), delta(1, 'end')]).pipe(scrubTextDeltas(), toArray()));
    expect(events[0]).toBe(start);
    expect(textOf(events, 1)).toBe('plain words end');
  });
});
