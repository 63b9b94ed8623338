import { expectTypeOf, test } from 'vitest';
import { runToolLoop, type PreparedCall, type RunOptions, type SlotResult } from '../../src/index.js';

test('runToolLoop takes RunOptions as its third, optional argument', () => {
  expectTypeOf(runToolLoop).parameter(2).toEqualTypeOf<RunOptions | undefined>();
  expectTypeOf<RunOptions>().toEqualTypeOf<{ readonly callEvents?: boolean }>();
});

test('the key-sorted argument JSON is an optional, readonly string on prepared calls and slot results', () => {
  expectTypeOf<PreparedCall['argsKey']>().toEqualTypeOf<string | undefined>();
  expectTypeOf<SlotResult['argsKey']>().toEqualTypeOf<string | undefined>();
});
