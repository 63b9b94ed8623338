import type { Observable } from 'rxjs';
import { map } from 'rxjs';
import {
  createAgent,
  isTurnEvent,
  type ApprovalPort,
  type KnobsInput,
  type ModelProvider,
  type PreparedCall,
  type SlotResult,
  type Tool,
  type TurnEvent,
} from '../src/index.js';
import { createTurnContext, iterationContext, startSnapshot, toPrepared } from '../src/operators.js';
import { scriptedModel } from '../src/testing/index.js';
import { code } from './turn-harness.js';

/**
 * What an operator's marble spec runs against: an agent's resolved bundle, a turn and its first
 * iteration, built the way `runToolLoop` builds them, without running the loop.
 */
export function stage(options: { tools?: Tool[]; knobs?: KnobsInput; approval?: ApprovalPort; signal?: AbortSignal; provider?: ModelProvider } = {}) {
  let n = 0;
  const { resolved } = createAgent({
    provider: options.provider ?? scriptedModel([]),
    model: 'm',
    tools: options.tools ?? [],
    knobs: options.knobs,
    approval: options.approval,
    ids: () => `id${++n}`,
  });
  const turn = createTurnContext(resolved, { message: 'go', signal: options.signal });
  const snapshot = startSnapshot(turn, { message: 'go' });
  const it = iterationContext(turn, { ...snapshot, iteration: 1 });
  turn.refreshTools();
  return { resolved, turn, snapshot, it };
}

/** A parsed call in `slot` (id `c{slot}`). */
export const parsedCall = (slot: number, name: string, args: Record<string, unknown> = {}) => ({
  slot,
  id: `c${slot}`,
  name,
  args,
  rawArguments: JSON.stringify(args),
});

/** An executable prepared call of `tool` in `slot`. */
export const executable = (slot: number, tool: Tool, args: Record<string, unknown> = {}): PreparedCall => ({
  ...toPrepared(parsedCall(slot, tool.name, args)),
  tool,
});

/** A slot decided by preparation (`unknown` tool). */
export const filled = (slot: number, name: string): PreparedCall => ({
  ...toPrepared(parsedCall(slot, name)),
  filled: { outcome: 'unknown', output: `Unknown tool: ${name}`, success: false },
});

/** A stage's values as short codes: events as `code(event)`, slot results as `#slot outcome`. */
export const codes = <T extends object>(source: Observable<TurnEvent | T>): Observable<string> =>
  source.pipe(map((value) => (isTurnEvent(value) ? code(value) : describe(value))));

function describe(value: object): string {
  if (Array.isArray(value)) return `[${value.map(describe).join(', ')}]`;
  const result = value as Partial<SlotResult> & Partial<PreparedCall> & { kind?: string };
  if (typeof result.slot === 'number' && typeof result.outcome === 'string') return `#${result.slot} ${result.outcome}`;
  if (typeof result.slot === 'number') return `#${result.slot} ${result.filled?.outcome ?? 'ready'}`;
  if (typeof result.kind === 'string') return result.kind;
  return JSON.stringify(value);
}
