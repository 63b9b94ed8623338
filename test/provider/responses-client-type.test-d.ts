import type OpenAI from 'openai';
import { expectTypeOf, test } from 'vitest';
import type { OpenAIResponsesClient } from '../../src/index.js';
import { openAIResponsesProvider } from '../../src/index.js';

test('a configured openai client is an OpenAIResponsesClient, so openAIResponsesProvider takes it as it is', () => {
  expectTypeOf<OpenAI>().toExtend<OpenAIResponsesClient>();
  expectTypeOf(openAIResponsesProvider).parameter(0).toEqualTypeOf<OpenAIResponsesClient>();
});
