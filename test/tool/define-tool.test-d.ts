import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool, type TurnEvent, type TurnEventOf } from '../../src/index.js';

describe('types users infer', () => {
  it('infers execute arguments from the zod schema (output side, defaults applied)', () => {
    defineTool({
      name: 't',
      description: '',
      parameters: z.object({ city: z.string(), units: z.enum(['c', 'f']).default('c'), days: z.number().optional() }),
      execute: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; units: 'c' | 'f'; days?: number | undefined }>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        return args.city;
      },
    });
  });

  it('types the tool by its parsed arguments', () => {
    const tool = defineTool({ name: 't', description: '', parameters: z.object({ n: z.number() }), execute: ({ n }) => String(n) });
    expectTypeOf(tool).toEqualTypeOf<Tool<{ n: number }>>();
  });

  it('narrows turn events on type', () => {
    const handle = (event: TurnEvent) => {
      if (event.type === 'tool-result') {
        expectTypeOf(event.outcome).toEqualTypeOf<
          'executed' | 'failed' | 'denied' | 'replaced' | 'hook-cancelled' | 'deduplicated' | 'interrupted' | 'unknown' | 'excluded' | 'invalid-arguments'
        >();
        expectTypeOf(event.receipt).toEqualTypeOf<string | undefined>();
      }
      if (event.type === 'done') expectTypeOf(event.reason).toEqualTypeOf<'final' | 'max-iterations' | 'cancelled' | 'paused' | 'stopped'>();
    };
    expectTypeOf(handle).parameter(0).toEqualTypeOf<TurnEvent>();
    expectTypeOf<TurnEventOf<'tool-call'>['slot']>().toEqualTypeOf<number>();
  });
});
