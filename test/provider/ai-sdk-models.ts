import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenAICompatible as createOpenAICompatibleV2 } from '@ai-sdk/openai-compatible-v2';
import type { AiSdkLanguageModel } from '../../src/index.js';
import type { OpenAIServer } from '../fixtures/openai-server.js';

/**
 * The real AI SDK models the AI SDK provider tests drive, each pointed at the fixture server
 * (OpenAI Chat Completions wire format): `@ai-sdk/openai-compatible` (spec v3; spec v4 in CI's
 * newest-AI-SDK run, vitest.ai-newest.config.ts) and its 1.x line (spec v2).
 */
export interface ModelKind {
  readonly label: string;
  /** The specification the model must implement (test/provider/ai-sdk-version.test.ts checks it). */
  readonly spec: string;
  readonly on: (server: OpenAIServer, apiKey?: string, modelId?: string, name?: string) => AiSdkLanguageModel;
}

export const MODELS: readonly ModelKind[] = [
  {
    label: '@ai-sdk/openai-compatible',
    spec: process.env.RTL_EXPECT_AI_SDK_SPEC ?? 'v3',
    on: (server, apiKey = 'test-key', modelId = 'fixture-model', name = 'fixture') =>
      createOpenAICompatible({ name, baseURL: server.baseURL, apiKey, includeUsage: true }).chatModel(modelId),
  },
  {
    label: '@ai-sdk/openai-compatible 1.x',
    spec: 'v2',
    on: (server, apiKey = 'test-key', modelId = 'fixture-model', name = 'fixture') =>
      createOpenAICompatibleV2({ name, baseURL: server.baseURL, apiKey, includeUsage: true }).chatModel(modelId),
  },
];
