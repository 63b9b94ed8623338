import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { createAgent, type StructuredOutcome, type TurnOutcome } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

const agent = createAgent({ provider: scriptedModel([]), model: 'm', tools: [] });
const weather = z.object({ city: z.string(), celsius: z.number().default(0), at: z.string().transform((s) => new Date(s)) });

test('complete({ output }) types object by the schema (its output side) on a final outcome', async () => {
  const done = await agent.complete({ message: 'x', output: weather });
  expectTypeOf(done).toEqualTypeOf<StructuredOutcome<{ city: string; celsius: number; at: Date }>>();
  if (done.reason === 'final') expectTypeOf(done.object).toEqualTypeOf<{ city: string; celsius: number; at: Date }>();
  else expectTypeOf(done.object).toEqualTypeOf<undefined>();
});

test('complete without output is the plain outcome, its object unknown', async () => {
  const done = await agent.complete({ message: 'x' });
  expectTypeOf(done).toEqualTypeOf<TurnOutcome>();
  expectTypeOf(done.object).toEqualTypeOf<unknown>();
});

test('resume takes the output schema again', () => {
  expectTypeOf(agent.resume).parameter(1).toHaveProperty('output').toEqualTypeOf<z.ZodType | undefined>();
});
