import type * as Ai from 'ai';
import type * as AiTest from 'ai/test';
import { importPeer, peerVersion } from '../peers.js';

/**
 * The Vercel AI SDK of the chosen peer set (bench/src/peers.ts), for vercel-ai.ts and the server
 * regime: `ai` 6 (pinned) or 7 (next). What the bench uses is the same in both but for the mock
 * and the tools' context, which are branched on here and in the systems.
 */
const ai = await importPeer<typeof Ai>('ai');
const aiTest = await importPeer<typeof AiTest & { MockLanguageModelV4?: typeof AiTest.MockLanguageModelV3 }>('ai/test');

export const { generateText, stepCountIs, tool } = ai;

/** The major version of the `ai` that runs (6 or 7). */
export const aiMajor = Number(peerVersion('ai').split('.')[0]);

/**
 * The mock of the release's own model spec, typed as the pinned V3 mock (the results have the
 * same shape): `MockLanguageModelV4` in ai 7, where a V3 model would go through a V3→V4 adapter
 * on every request, and `MockLanguageModelV3` in ai 6.
 */
export const MockLanguageModel = aiTest.MockLanguageModelV4 ?? aiTest.MockLanguageModelV3;
export type MockLanguageModel = AiTest.MockLanguageModelV3;
/** The mock's name, for the systems' notes. */
export const mockName = aiTest.MockLanguageModelV4 ? 'MockLanguageModelV4' : 'MockLanguageModelV3';
