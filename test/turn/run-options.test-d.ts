import { expectTypeOf, test } from 'vitest';
import {
  isTurnEvent,
  runToolLoop,
  type ChatMessage,
  type PreparedCall,
  type ResolvedAgentExecution,
  type SlotResult,
  type TokenUsage,
  type TurnEvent,
  type TurnEventOf,
  type TurnInput,
  type TurnSnapshot,
} from '../../src/index.js';
import type { ModelResponse } from '../../src/operators.js';

test('runToolLoop takes the resolved agent and the turn input, and nothing else', () => {
  expectTypeOf(runToolLoop).parameters.toEqualTypeOf<[ResolvedAgentExecution, TurnInput]>();
});

test('the key-sorted argument JSON is an optional, readonly string on prepared calls and slot results', () => {
  expectTypeOf<PreparedCall['argsKey']>().toEqualTypeOf<string | undefined>();
  expectTypeOf<SlotResult['argsKey']>().toEqualTypeOf<string | undefined>();
});

/**
 * True when every value of `T` survives `JSON.stringify` as itself: primitives, arrays and plain
 * objects of such values; false for anything with a method (a function, Map, Set, Date,
 * AbortSignal, a class with behaviour), symbols and bigints. `unknown` passes: it types
 * JSON-decoded tool arguments. Looks 16 levels deep: a snapshot holds its sub-agents' snapshots.
 */
type JsonSafe<T, Depth extends 0[] = []> = Depth['length'] extends 16
  ? true
  : unknown extends T
    ? true
    : T extends string | number | boolean | null | undefined
      ? true
      : T extends symbol | bigint | ((...args: never[]) => unknown)
        ? false
        : T extends readonly (infer U)[]
          ? JsonSafe<U, [...Depth, 0]>
          : T extends object
            ? [{ [K in keyof T]-?: JsonSafe<T[K], [...Depth, 0]> }[keyof T]] extends [true]
              ? true
              : false
            : false;

test('a TurnSnapshot is JSON-safe data', () => {
  expectTypeOf<JsonSafe<TurnSnapshot>>().toEqualTypeOf<true>();
  expectTypeOf<TurnSnapshot['history']>().toEqualTypeOf<readonly ChatMessage[]>();
  expectTypeOf<JsonSafe<TurnSnapshot['history']>>().toEqualTypeOf<true>();
  expectTypeOf<JsonSafe<TurnSnapshot['promptSignatures']>>().toEqualTypeOf<true>();
  expectTypeOf<JsonSafe<TurnSnapshot['loopWindow']>>().toEqualTypeOf<true>();
  expectTypeOf<JsonSafe<NonNullable<TurnSnapshot['batch']>>>().toEqualTypeOf<true>();
  // the check can fail: runtime services are not data
  expectTypeOf<JsonSafe<{ readonly signal: AbortSignal }>>().toEqualTypeOf<false>();
  expectTypeOf<JsonSafe<{ readonly seen: Map<string, string> }>>().toEqualTypeOf<false>();
  expectTypeOf<JsonSafe<{ readonly at: Date }>>().toEqualTypeOf<false>();
  expectTypeOf<JsonSafe<{ readonly list: readonly { readonly f: () => void }[] }>>().toEqualTypeOf<false>();
});

test('isTurnEvent narrows a stage value to the event or to the stage result', () => {
  const value = {} as TurnEvent | ModelResponse;
  if (isTurnEvent(value)) expectTypeOf(value).toEqualTypeOf<TurnEvent>();
  else expectTypeOf(value).toEqualTypeOf<ModelResponse>();
  const slot = {} as TurnEvent | SlotResult;
  if (!isTurnEvent(slot)) expectTypeOf(slot).toEqualTypeOf<SlotResult>();
});

test('done events carry the TokenUsage of the turn', () => {
  expectTypeOf<TurnEventOf<'done'>['usage']>().toEqualTypeOf<TokenUsage>();
  expectTypeOf<TokenUsage>().toEqualTypeOf<{ readonly inputTokens: number; readonly outputTokens: number }>();
  expectTypeOf<ModelResponse['usage']>().toEqualTypeOf<TokenUsage>();
});
