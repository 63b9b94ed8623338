import { describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/openai-server.js';
import { MODELS } from './ai-sdk-models.js';

// CI runs the AI SDK provider tests twice: with the root devDependencies (spec v3 and v2) and, on
// Node 22 and 24, with the newest AI SDK from .ci/ai-newest (vitest.ai-newest.config.ts sets
// RTL_EXPECT_AI_SDK_SPEC). This keeps the second run honest: it fails when the alias does not load it.
describe.each(MODELS)('The AI SDK model the provider tests load ($label)', ({ spec, on }) => {
  it(`implements specification ${spec}`, async () => {
    const server = await startOpenAIServer([]);
    try {
      expect(on(server).specificationVersion).toBe(spec);
    } finally {
      await server.close();
    }
  });
});
