// Type-checked by vitest.ai-newest.config.ts only: `@ai-sdk/provider` resolves to this folder's
// node_modules (the newest AI SDK, spec v4), which the root's tsc never sees.
import type { LanguageModelV2, LanguageModelV3, LanguageModelV4 } from '@ai-sdk/provider';
import { expectTypeOf, test } from 'vitest';
import type { AiSdkLanguageModel } from '../../src/index.js';

test('the newest @ai-sdk/provider’s LanguageModelV2, V3 and V4 are AiSdkLanguageModels', () => {
  expectTypeOf<LanguageModelV2>().toExtend<AiSdkLanguageModel>();
  expectTypeOf<LanguageModelV3>().toExtend<AiSdkLanguageModel>();
  expectTypeOf<LanguageModelV4>().toExtend<AiSdkLanguageModel>();
});
