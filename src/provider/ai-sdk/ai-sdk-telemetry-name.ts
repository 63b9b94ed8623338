/** AI SDK provider ids (their part before the first `.`) and their GenAI conventions names. */
const NAMES: Readonly<Record<string, string>> = {
  openai: 'openai',
  azure: 'azure.ai.openai',
  'azure-openai': 'azure.ai.openai',
  anthropic: 'anthropic',
  'vertex.anthropic': 'gcp.vertex_ai',
  'google.vertex': 'gcp.vertex_ai',
  vertex: 'gcp.vertex_ai',
  google: 'gcp.gemini',
  'amazon-bedrock': 'aws.bedrock',
  bedrock: 'aws.bedrock',
  mistral: 'mistral_ai',
  cohere: 'cohere',
  groq: 'groq',
  deepseek: 'deepseek',
  perplexity: 'perplexity',
  xai: 'x_ai',
};

/**
 * The `gen_ai.provider.name` for an AI SDK model's `provider` id: a GenAI conventions value where
 * one fits (`'openai.chat'` → `'openai'`, `'google.vertex.chat'` → `'gcp.vertex_ai'`,
 * `'amazon-bedrock'` → `'aws.bedrock'`), else the id's first part (`'ollama.chat'` → `'ollama'`).
 *
 * @example
 * ```ts
 * aiSdkTelemetryName('anthropic.messages'); // 'anthropic'
 * ```
 */
export function aiSdkTelemetryName(providerId: string): string {
  const parts = providerId.split('.');
  const two = parts.slice(0, 2).join('.');
  if (parts.length > 1 && Object.hasOwn(NAMES, two)) return NAMES[two];
  return Object.hasOwn(NAMES, parts[0]) ? NAMES[parts[0]] : parts[0];
}
