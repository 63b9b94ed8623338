import Anthropic from '@anthropic-ai/sdk';
import type { AnthropicServer } from '../fixtures/anthropic-server.js';

/** The key the tests' clients send; a 401 body may echo it, and no error may show it. */
export const TEST_KEY = 'sk-ant-test-0123456789abcdef';

/** A real `@anthropic-ai/sdk` client pointed at the fixture server (quiet logs, few retries). */
export const anthropicFor = (server: AnthropicServer, maxRetries = 0, options: { fetch?: typeof fetch } = {}): Anthropic =>
  new Anthropic({ baseURL: server.baseURL, apiKey: TEST_KEY, maxRetries, logLevel: 'off', ...options });
