import type Anthropic from '@anthropic-ai/sdk';
import { expectTypeOf, test } from 'vitest';
import { anthropicProvider, type AnthropicClient } from '../../src/index.js';

test('a configured Anthropic client is an AnthropicClient, so anthropicProvider takes it as it is', () => {
  expectTypeOf<Anthropic>().toExtend<AnthropicClient>();
  expectTypeOf(anthropicProvider).parameter(0).toEqualTypeOf<AnthropicClient>();
});
