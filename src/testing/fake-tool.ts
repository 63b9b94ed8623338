import { z } from 'zod';
import { defineTool, type DefineToolOptions } from '../tool/define-tool.js';
import type { Tool, ToolContext, ToolReturn } from '../core/tool.js';

/** A recorded call of a fake tool. */
export interface FakeToolCall {
  readonly args: Record<string, unknown>;
  readonly callId: string;
  readonly signal: AbortSignal;
}

export interface FakeTool extends Tool<Record<string, unknown>> {
  /** Every call, in start order, with the signal the tool received. */
  readonly calls: FakeToolCall[];
}

/**
 * A tool for tests. `behaviour` is what every call returns (a `cold()` observable places the
 * result in virtual time, and its `subscriptions` show when the loop started and tore it down),
 * or a function of the call. Accepts any object arguments unless `parameters` is given.
 *
 * @example
 * ```ts
 * createTestScheduler(expect).run(({ cold, expectSubscriptions }) => {
 *   const slow = cold('----(r|)', { r: 'done' });
 *   const tool = fakeTool('slow', slow);
 *   // ... run a turn with the tool, then:
 *   expectSubscriptions(slow.subscriptions).toBe('^---!');
 * });
 * ```
 */
export function fakeTool(
  name: string,
  behaviour: ToolReturn | ((args: Record<string, unknown>, ctx: ToolContext) => ToolReturn),
  options: Partial<Omit<DefineToolOptions<z.ZodType<Record<string, unknown>>>, 'name' | 'execute'>> = {},
): FakeTool {
  const calls: FakeToolCall[] = [];
  const tool = defineTool({
    description: `Fake tool ${name}`,
    parameters: z.looseObject({}) as z.ZodType<Record<string, unknown>>,
    ...options,
    name,
    execute: (args, ctx) => {
      calls.push({ args, callId: ctx.callId, signal: ctx.signal });
      return typeof behaviour === 'function' ? behaviour(args, ctx) : behaviour;
    },
  });
  return Object.assign(Object.create(tool) as Tool<Record<string, unknown>>, { calls }) as FakeTool;
}
