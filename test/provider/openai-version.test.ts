import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { VERSION } from 'openai/version';
import { openAIChatProvider } from '../../src/index.js';
import { startOpenAIServer, type OpenAIServer } from '../fixtures/openai-server.js';
import { clientFor, eventsOf } from './helpers.js';

// CI runs the provider tests twice: with the root devDependency (openai 6) and, on Node 22, with
// openai 7 from .ci/openai7 (vitest.openai7.config.ts sets RTL_EXPECT_OPENAI_MAJOR=7). This test
// keeps the second run honest: it fails when the alias does not really load the other major.
const rootPin = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).devDependencies.openai as string;
const expectedMajor = process.env.RTL_EXPECT_OPENAI_MAJOR ?? rootPin.split('.')[0];

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('The openai client the provider tests load', () => {
  it(`is openai ${expectedMajor}, and that client is the one that talks to the fixture server`, async () => {
    expect(VERSION.split('.')[0]).toBe(expectedMajor);
    server = await startOpenAIServer([{ kind: 'reply', text: 'ok' }]);
    await eventsOf(openAIChatProvider(clientFor(server)));
    expect(server.requests[0].headers['user-agent']).toBe(`OpenAI/JS ${VERSION}`);
  });
});
