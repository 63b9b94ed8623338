import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, type ProviderEvent, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { scrubDelta } from '../../src/results/scrub-delta.js';
import { leaksOf } from '../fixtures/leak-search.js';

// fake secrets, made here: a head long enough to be redacted on its own, and a tail in the next delta
const openAiKey = `sk-${'A1b2C3d4E5f6G7h8I9j0K1l2M3n'}`;
const tail = 'O4p5Q6r7S8t9U0v1W2x3';
const github = `ghp_${'a'.repeat(30)}`;
const githubTail = 'b1c2d3';

const shownText = async (deltas: readonly string[]): Promise<string> => {
  const events: ProviderEvent[] = deltas.map((text) => ({ type: 'text-delta', text }));
  const agent = createAgent({ provider: scriptedModel([from(events)]), model: 'm', tools: [] });
  const all: TurnEvent[] = await lastValueFrom(agent.run({ message: 'hi' }).pipe(toArray()));
  return all.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
};

describe('text deltas: a secret whose head is redacted does not leak its tail in the next delta', () => {
  it.each([
    ['an OpenAI key', [`key ${openAiKey}`, `${tail} ok`]],
    ['an OpenAI key, the tail over three deltas', [`key ${openAiKey}`, tail.slice(0, 5), `${tail.slice(5)}, done`]],
    ['a GitHub token', [`token ${github}`, `${githubTail}\nnext line`]],
  ])('%s', async (_name, deltas) => {
    const shown = await shownText(deltas);
    expect(shown).toContain('[REDACTED]');
    for (const piece of [tail.slice(0, 5), tail.slice(-5), githubTail]) expect(leaksOf(shown, piece)).toEqual([]);
    expect(shown).toMatch(/(ok|done|next line)$/); // what follows the secret still shows
  });

  it('text after a redaction that starts with a space or punctuation is kept whole', () => {
    const first = scrubDelta(`key ${openAiKey}`, false);
    expect(first.inSecret).toBe(true);
    expect(scrubDelta(' and more', first.inSecret)).toEqual({ text: ' and more', inSecret: false });
    expect(scrubDelta('plain words', false)).toEqual({ text: 'plain words', inSecret: false });
  });

  it('the model-visible history keeps the text as written', async () => {
    const events: ProviderEvent[] = [`key ${openAiKey}`, `${tail} ok`].map((text) => ({ type: 'text-delta', text }));
    const agent = createAgent({ provider: scriptedModel([from(events)]), model: 'm', tools: [] });
    const done = await agent.complete({ message: 'hi' });
    expect(done.history[done.history.length - 1].content).toBe(`key ${openAiKey}${tail} ok`);
  });
});
