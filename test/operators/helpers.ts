import { z } from 'zod';
import {
  createAgent,
  defineTool,
  isTurnEvent,
  type KnobsInput,
  type ParsedCall,
  type PreparedCall,
  type Tool,
  type TurnEvent,
  type TurnInput,
} from '../../src/index.js';
import { createTurnContext, iterationContext, startSnapshot, toPrepared } from '../../src/operators.js';
import { scriptedModel, type ScriptedResponse } from '../../src/testing/index.js';

/**
 * A resolved bundle, a fresh turn (its services and its start snapshot) and the context of its
 * first iteration, for driving operators by hand.
 */
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
  const input: TurnInput = { message: 'hi', ...options.input };
  const turn = createTurnContext(resolved, input);
  const snapshot = startSnapshot(turn, input);
  const it = iterationContext(turn, { ...snapshot, iteration: snapshot.iteration + 1 });
  return { model, resolved, turn, snapshot, it };
}

/** The turn events among a stage's values. */
export const eventsIn = (values: readonly object[]): TurnEvent[] => values.filter(isTurnEvent);

/** The stage results (everything that is not a turn event) among a stage's values. */
export const resultsIn = <T extends object>(values: readonly (T | TurnEvent)[]): T[] =>
  values.filter((v): v is T => !isTurnEvent(v));

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

/** Event summaries (other values are skipped): `call x#0`, `x#0 executed`. */
export const cards = (values: readonly object[]) =>
  eventsIn(values).flatMap((e) =>
    e.type === 'tool-call' ? [`call ${e.name}#${e.slot}`] : e.type === 'tool-result' ? [`${e.name}#${e.slot} ${e.outcome}`] : [],
  );
