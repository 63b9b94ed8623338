import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, progressLines, type ObserverEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { leakedWindows, secretsCorpus } from '../fixtures/secrets-corpus.js';
import { expectHealthyTurn, runTurn } from './turn-runner.js';

/**
 * Issue 16, item 3: the event output is scrubbed before it is truncated, so a secret that the
 * truncation cuts (half a PEM body with its END line, a token with its head cut) never
 * survives on `tool-result.output`, observer events or progress lines.
 */

const corpus = secretsCorpus();
const byName = (prefix: string) => corpus.find((s) => s.name.startsWith(prefix))!;
const filler = (n: number) => 'x'.repeat(n);

/** Tool outputs that put the secret where a cut of `budget` characters lands inside it. */
const SHAPES = [
  ['PEM body cut, END line kept', byName('RSA private key'), (text: string) => `${filler(40)}\n${text}`],
  ['OpenSSH body cut, END line kept', byName('OpenSSH private key'), (text: string) => `${filler(10)}${text}`],
  ['40-char bearer token, head cut', byName('Bearer token in prose'), (text: string) => `${filler(30)} ${text} ${filler(30)}`],
  ['GitHub token, head cut', byName('GitHub classic'), (text: string) => `${filler(25)}${text}${filler(25)}`],
  ['AWS secret key under its key name', byName('AWS secret access key'), (text: string) => `${filler(20)}${text}${filler(20)}`],
] as const;

describe('a secret cut by truncation never survives on a rendering surface', () => {
  it.each(SHAPES)('%s, at many cut points', async (_, sample, shape) => {
    const output = shape(sample.text);
    // budgets whose cut (2/3 head, 1/3 tail) lands before, inside and after the secret
    for (let budget = 30; budget < output.length; budget += Math.max(3, Math.floor(output.length / 25))) {
      const observed: ObserverEvent[] = [];
      const reveal = defineTool({ name: 'reveal', description: 'r', parameters: z.object({}), execute: () => output });
      const fail = defineTool({ name: 'fail', description: 'f', parameters: z.object({}), execute: () => ({ success: false, output: '', error: output }) });
      const model = scriptedModel([{ toolCalls: [{ id: 'r', name: 'reveal', arguments: {} }, { id: 'f', name: 'fail', arguments: {} }] }, { text: 'ok' }]);
      const run = await runTurn(
        createAgent({ provider: model, model: 'm', tools: [reveal, fail], observers: [(e) => void observed.push(e)], knobs: { maxToolResultChars: budget } }),
      );
      expectHealthyTurn(run, model.requests);
      const progress = await lastValueFrom(from(run.events).pipe(progressLines({ maxReasonChars: 10_000 }), toArray()));
      const outputs = run.events.flatMap((e) => (e.type === 'tool-result' ? [e.output] : []));
      // the model-visible result was cut (it is not scrubbed), so the cut fell where this budget puts it
      const history = run.done!.history.flatMap((m) => (m.role === 'tool' ? [m.content] : []));
      expect(history.every((c) => c.includes('characters truncated'))).toBe(true);
      for (const [surface, value] of Object.entries({ outputs, observed, progress })) {
        expect({ budget, surface, leaked: leakedWindows(JSON.stringify(value), sample.secret) }).toEqual({ budget, surface, leaked: [] });
      }
    }
  });
});
