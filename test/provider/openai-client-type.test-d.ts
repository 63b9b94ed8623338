import type OpenAI from 'openai';
import { expectTypeOf, test } from 'vitest';
import type { OpenAIChatClient } from '../../src/index.js';
import { openAIChatProvider } from '../../src/index.js';

test('a configured openai client is an OpenAIChatClient, so openAIChatProvider takes it as it is', () => {
  expectTypeOf<OpenAI>().toExtend<OpenAIChatClient>();
  expectTypeOf(openAIChatProvider).parameter(0).toEqualTypeOf<OpenAIChatClient>();
});
