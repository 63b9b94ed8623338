/**
 * Picks a real model from the environment, for the demo and examples:
 *
 *   RTL_PROVIDER      `openai` (default: Chat Completions, also any compatible server),
 *                     `responses` (the OpenAI Responses API) or `anthropic` (the Messages API)
 *   OPENAI_BASE_URL   an OpenAI-compatible server, e.g. http://localhost:11434/v1 (Ollama),
 *                     http://localhost:8000/v1 (vLLM), http://localhost:1234/v1 (LM Studio)
 *   OPENAI_API_KEY    the key (local servers accept any value)
 *   ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY   the same, for RTL_PROVIDER=anthropic
 *   RTL_MODEL         the model name (required with a base URL; default gpt-4o-mini on OpenAI,
 *                     claude-sonnet-4-5 on Anthropic)
 *   RTL_TOOL_PROTOCOL `text` for models without native tool calling (tools are then called in text)
 *   RTL_STREAM        `0` (or `false`, `off`) sends non-streaming requests, for servers that fail
 *                     streaming (with native tool calls as with the text protocol; OpenAI only)
 *
 * Without the provider's base URL and key it returns undefined, and callers stay on their
 * embedded scripted model.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import {
  anthropicProvider,
  ConfigurationError,
  openAIChatProvider,
  openAIResponsesProvider,
  textProtocolProvider,
  type ModelProvider,
} from '../src/index.js';

/** A provider and model chosen from the environment, and a one-line description for people. */
export interface EnvProvider {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly description: string;
}

/** The vendors `RTL_PROVIDER` names, with the variables each reads and its default model. */
const VENDORS = {
  openai: { url: 'OPENAI_BASE_URL', key: 'OPENAI_API_KEY', model: 'gpt-4o-mini', host: 'api.openai.com' },
  responses: { url: 'OPENAI_BASE_URL', key: 'OPENAI_API_KEY', model: 'gpt-4o-mini', host: 'api.openai.com' },
  anthropic: { url: 'ANTHROPIC_BASE_URL', key: 'ANTHROPIC_API_KEY', model: 'claude-sonnet-4-5', host: 'api.anthropic.com' },
} as const;

type Vendor = keyof typeof VENDORS;

/**
 * Builds a provider over a real vendor client from the environment (see the variables above):
 * OpenAI Chat Completions by default, the OpenAI Responses API or Anthropic's Messages API with
 * `RTL_PROVIDER`; undefined when neither the vendor's base URL nor its key is set. Throws a
 * `ConfigurationError` for an unknown `RTL_PROVIDER` and for a base URL without `RTL_MODEL`.
 *
 * @example
 * ```ts
 * const real = providerFromEnv();
 * const agent = createAgent({ ...(real ?? { provider: scriptedModel(script), model: 'scripted' }), tools });
 * ```
 */
export function providerFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): EnvProvider | undefined {
  const named = env.RTL_PROVIDER?.trim().toLowerCase() || 'openai';
  if (!Object.hasOwn(VENDORS, named)) {
    throw new ConfigurationError(`RTL_PROVIDER must be one of ${Object.keys(VENDORS).join(', ')}; got '${named}'.`);
  }
  const vendor = named as Vendor;
  const names = VENDORS[vendor];
  const baseURL = env[names.url]?.trim() || undefined;
  const apiKey = env[names.key]?.trim() || undefined;
  if (baseURL === undefined && apiKey === undefined) return undefined;
  const model = env.RTL_MODEL?.trim() || (baseURL === undefined ? names.model : undefined);
  if (model === undefined) {
    throw new ConfigurationError(`${names.url} is set but RTL_MODEL is not: set RTL_MODEL to the model name the server serves.`);
  }
  const stream = !['0', 'false', 'off', 'no'].includes(env.RTL_STREAM?.trim().toLowerCase() ?? '');
  const native = nativeProvider(vendor, baseURL, apiKey ?? 'not-needed', stream);
  const text = env.RTL_TOOL_PROTOCOL?.trim().toLowerCase() === 'text';
  const where = baseURL ?? names.host;
  const notes = [...(vendor === 'openai' ? [] : [vendor === 'responses' ? 'Responses API' : 'Messages API']), ...(text ? ['text tool protocol'] : []), ...(stream ? [] : ['no streaming'])];
  return {
    provider: text ? textProtocolProvider(native) : native,
    model,
    description: `${model} at ${where}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`,
  };
}

function nativeProvider(vendor: Vendor, baseURL: string | undefined, apiKey: string, stream: boolean): ModelProvider {
  if (vendor === 'anthropic') return anthropicProvider(new Anthropic({ baseURL, apiKey, maxRetries: 2 }));
  const client = new OpenAI({ baseURL, apiKey, maxRetries: 2 });
  if (vendor === 'responses') return openAIResponsesProvider(client, { stream });
  return openAIChatProvider(client, { name: baseURL === undefined ? 'openai' : 'openai-compatible', stream });
}
