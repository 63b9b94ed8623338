import type { LanguageModelV2, LanguageModelV3 } from '@ai-sdk/provider';
import { expectTypeOf, test } from 'vitest';
import type { AiSdkLanguageModel } from '../../src/index.js';

test('the real LanguageModelV2 and LanguageModelV3 of @ai-sdk/provider are AiSdkLanguageModels', () => {
  expectTypeOf<LanguageModelV2>().toExtend<AiSdkLanguageModel>();
  expectTypeOf<LanguageModelV3>().toExtend<AiSdkLanguageModel>();
});
