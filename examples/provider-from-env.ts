/**
 * Picks a real model from the environment, for the demo and examples:
 *
 *   OPENAI_BASE_URL   an OpenAI-compatible server, e.g. http://localhost:11434/v1 (Ollama),
 *                     http://localhost:8000/v1 (vLLM), http://localhost:1234/v1 (LM Studio)
 *   OPENAI_API_KEY    the key (local servers accept any value)
 *   RTL_MODEL         the model name (required with OPENAI_BASE_URL; default gpt-4o-mini on OpenAI)
 *   RTL_TOOL_PROTOCOL `text` for models without native tool calling (tools are then called in text)
 *   RTL_STREAM        `0` (or `false`, `off`) sends non-streaming requests, for servers that fail
 *                     streaming (with native tool calls as with the text protocol)
 *
 * Without OPENAI_BASE_URL and OPENAI_API_KEY it returns undefined, and callers stay on their
 * embedded scripted model.
 */
import OpenAI from 'openai';
import { ConfigurationError, openAIChatProvider, textProtocolProvider, type ModelProvider } from '../src/index.js';

/** A provider and model chosen from the environment, and a one-line description for people. */
export interface EnvProvider {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly description: string;
}

/**
 * Builds an OpenAI Chat Completions provider (a real `openai` client) from `OPENAI_BASE_URL`,
 * `OPENAI_API_KEY`, `RTL_MODEL`, `RTL_TOOL_PROTOCOL` and `RTL_STREAM`; undefined when neither the base URL nor
 * the key is set. Throws a `ConfigurationError` for a base URL without `RTL_MODEL`.
 *
 * @example
 * ```ts
 * const real = providerFromEnv();
 * const agent = createAgent({ ...(real ?? { provider: scriptedModel(script), model: 'scripted' }), tools });
 * ```
 */
export function providerFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): EnvProvider | undefined {
  const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  if (baseURL === undefined && apiKey === undefined) return undefined;
  const model = env.RTL_MODEL?.trim() || (baseURL === undefined ? 'gpt-4o-mini' : undefined);
  if (model === undefined) {
    throw new ConfigurationError('OPENAI_BASE_URL is set but RTL_MODEL is not: set RTL_MODEL to the model name the server serves.');
  }
  const client = new OpenAI({ baseURL, apiKey: apiKey ?? 'not-needed', maxRetries: 2 });
  const stream = !['0', 'false', 'off', 'no'].includes(env.RTL_STREAM?.trim().toLowerCase() ?? '');
  const native = openAIChatProvider(client, { name: baseURL === undefined ? 'openai' : 'openai-compatible', stream });
  const text = env.RTL_TOOL_PROTOCOL?.trim().toLowerCase() === 'text';
  const where = baseURL ?? 'api.openai.com';
  const notes = [...(text ? ['text tool protocol'] : []), ...(stream ? [] : ['no streaming'])];
  return {
    provider: text ? textProtocolProvider(native) : native,
    model,
    description: `${model} at ${where}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`,
  };
}
