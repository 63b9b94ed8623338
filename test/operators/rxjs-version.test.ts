import pkg from 'rxjs/package.json' with { type: 'json' };
import { lastValueFrom, Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, defineTool } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { z } from 'zod';

describe('the rxjs the suite runs on (vitest.rxjs.config.ts sets RTL_EXPECT_RXJS for its runs)', () => {
  it('is the release the run asked for, or the root devDependency', () => {
    expect(pkg.version).toBe(process.env.RTL_EXPECT_RXJS ?? '7.8.2');
  });

  it("the loop's Observables are that rxjs's: a turn runs on it", async () => {
    const add = defineTool({ name: 'add', description: 'adds', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => String(a + b) });
    const agent = createAgent({ provider: scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: '5' }]), model: 'm', tools: [add] });
    const run = agent.run({ message: 'add' });
    expect(run).toBeInstanceOf(Observable);
    const done = await lastValueFrom(run);
    expect(done).toMatchObject({ type: 'done', text: '5', reason: 'final' });
  });
});
