import { z } from 'zod';
import { createAgent, defineTool, type KnobsInput, type ParsedCall, type PreparedCall, type Tool, type TurnEvent, type TurnInput } from '../../src/index.js';
import { createTurnState, toPrepared } from '../../src/operators.js';
import { scriptedModel, type ScriptedResponse } from '../../src/testing/index.js';

/** A resolved bundle and a fresh turn whose events are collected, for driving operators by hand. */
export function setup(options: { tools?: Tool[]; steps?: ScriptedResponse[]; knobs?: KnobsInput; input?: Partial<TurnInput>; instructions?: string } = {}) {
  const model = scriptedModel(options.steps ?? []);
  let n = 0;
  const { resolved } = createAgent({
    provider: model,
    model: 'm',
    tools: options.tools ?? [],
    knobs: options.knobs,
    instructions: options.instructions,
    ids: () => `gen-${++n}`,
  });
  const events: TurnEvent[] = [];
  const turn = createTurnState(resolved, { message: 'hi', ...options.input }, (e) => events.push(e));
  return { model, resolved, turn, events };
}

/** A parsed call in slot `slot` (id = `c{slot}`). */
export const parsed = (slot: number, name: string, args: Record<string, unknown> = {}): ParsedCall => ({
  slot,
  id: `c${slot}`,
  name,
  args,
  rawArguments: JSON.stringify(args),
});

/** An executable prepared call for `tool`. */
export const executable = (slot: number, tool: Tool, args: Record<string, unknown> = {}): PreparedCall => ({
  ...toPrepared(parsed(slot, tool.name, args)),
  tool,
});

/** A tool that echoes its `v` argument. */
export const echo = (name = 'echo', execute: (args: { v?: string }) => unknown = ({ v }) => v ?? '') =>
  defineTool({ name, description: name, parameters: z.object({ v: z.string().optional() }), execute: execute as never });

/** Event summaries: `call x#0`, `x#0 executed`. */
export const cards = (events: readonly TurnEvent[]) =>
  events.flatMap((e) =>
    e.type === 'tool-call' ? [`call ${e.name}#${e.slot}`] : e.type === 'tool-result' ? [`${e.name}#${e.slot} ${e.outcome}`] : [],
  );
