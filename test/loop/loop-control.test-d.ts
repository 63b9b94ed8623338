import { of } from 'rxjs';
import { expectTypeOf, test } from 'vitest';
import {
  createAgent,
  hasToolCall,
  stepCountIs,
  type AgentConfig,
  type PrepareIteration,
  type SlotResult,
  type StopCondition,
  type TurnEventOf,
  type TurnInput,
} from '../../src/index.js';

declare const config: Omit<AgentConfig, 'stopWhen' | 'prepareIteration'>;

test('stopWhen takes the helpers, an array of them, or a function of the state', () => {
  expectTypeOf(stepCountIs(2)).toEqualTypeOf<StopCondition>();
  expectTypeOf(hasToolCall('a', 'b')).toEqualTypeOf<StopCondition>();
  createAgent({ ...config, stopWhen: [stepCountIs(5), (state) => state.results.some((r) => r.outcome === 'failed')] });
  const condition: StopCondition = (state) => {
    expectTypeOf(state.results).toEqualTypeOf<readonly SlotResult[]>();
    expectTypeOf(state.usage.inputTokens).toEqualTypeOf<number>();
    return state.iteration > 3;
  };
  // @ts-expect-error a condition answers at once: a Promise is not a boolean
  const late: StopCondition = async () => true;
  void [condition, late];
});

test('prepareIteration answers a plan directly, as a Promise or as an Observable; a turn takes both options', () => {
  const direct: PrepareIteration = (state) => (state.iteration === 1 ? { tools: state.tools.slice(0, 1) } : undefined);
  const promised: PrepareIteration = async () => ({ model: 'big', system: { append: 'Be brief.' } });
  const observed: PrepareIteration = () => of({ system: 'You are terse.' });
  // @ts-expect-error tools are names, not one name
  const wrong: PrepareIteration = () => ({ tools: 'read_file' });
  const input: TurnInput = { message: 'hi', stopWhen: stepCountIs(1), prepareIteration: direct };
  void [promised, observed, wrong, input];
  expectTypeOf<TurnEventOf<'done'>['reason']>().toEqualTypeOf<'final' | 'max-iterations' | 'cancelled' | 'paused' | 'stopped'>();
});
