import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { createAgent, delegateTool, type NestedEvent, type Tool, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

const agent = createAgent({ provider: scriptedModel([]), model: 'm', tools: [] });

test("a delegate tool's arguments are its parameters' output, `{ task: string }` by default", () => {
  expectTypeOf(delegateTool({ agent, name: 'ask', description: 'd' })).toEqualTypeOf<Tool<{ task: string }>>();
  const review = delegateTool({
    agent,
    name: 'review',
    description: 'd',
    parameters: z.object({ path: z.string(), depth: z.number().default(1) }),
    message: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ path: string; depth: number }>();
      return args.path;
    },
  });
  expectTypeOf(review).toEqualTypeOf<Tool<{ path: string; depth: number }>>();
});

test('a delegate event narrows on type, and so does the event it carries (never a done)', () => {
  const seen = (event: TurnEvent) => {
    if (event.type !== 'delegate') return;
    expectTypeOf(event.parentCallId).toEqualTypeOf<string>();
    expectTypeOf(event.event).toEqualTypeOf<NestedEvent>();
    expectTypeOf<Extract<NestedEvent, { type: 'done' }>>().toBeNever();
    if (event.event.type === 'tool-call') expectTypeOf(event.event.name).toEqualTypeOf<string>();
  };
  expectTypeOf(seen).parameter(0).toEqualTypeOf<TurnEvent>();
});
