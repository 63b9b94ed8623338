import OpenAI from 'openai';
import type { ResponsesServer } from '../fixtures/responses-server.js';

/** A real `openai` client pointed at the Responses fixture server (quiet logs, few retries). */
export const responsesClient = (server: ResponsesServer, maxRetries = 0): OpenAI =>
  new OpenAI({ baseURL: server.baseURL, apiKey: 'test-key-responses', maxRetries, logLevel: 'off' });
