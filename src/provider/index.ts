// Providers: OpenAI Chat Completions, OpenAI Responses and Anthropic Messages (native tools, streaming), any AI SDK model, and the text tool protocol.

export { openAIChatProvider } from './openai-chat-provider.js';
export type { OpenAIChatProviderOptions } from './openai-chat-provider.js';
export type {
  OpenAIChatBody,
  OpenAIChatChunk,
  OpenAIChatClient,
  OpenAIChatCompletion,
  OpenAIChatNonStreamingBody,
  OpenAIChatStreamingBody,
  OpenAIRequestOptions,
  OpenAIUsage,
} from './openai-client.js';
export { openAIResponsesProvider } from './responses/openai-responses-provider.js';
export type { OpenAIResponsesProviderOptions } from './responses/openai-responses-provider.js';
export type {
  OpenAIResponse,
  OpenAIResponsesBody,
  OpenAIResponsesClient,
  OpenAIResponsesNonStreamingBody,
  OpenAIResponsesStreamEvent,
  OpenAIResponsesStreamingBody,
} from './responses/openai-responses-client.js';
export { anthropicProvider } from './anthropic/anthropic-provider.js';
export type { AnthropicProviderOptions } from './anthropic/anthropic-provider.js';
export type {
  AnthropicClient,
  AnthropicRequestOptions,
  AnthropicStreamEvent,
  AnthropicStreamingBody,
  AnthropicUsage,
} from './anthropic/anthropic-client.js';
export { textProtocolProvider } from './text-protocol/text-protocol-provider.js';
export type { TextProtocolProviderOptions } from './text-protocol/text-protocol-provider.js';
export { textToolProtocol } from './text-protocol/text-tool-protocol.js';
export type { TextProtocolOptions } from './text-protocol/text-tool-protocol.js';
export { parseTextToolCalls } from './text-protocol/parse-text-tool-calls.js';
export { outputInstructions } from './text-protocol/output-instructions.js';
export { aiSdkProvider } from './ai-sdk/ai-sdk-provider.js';
export type { AiSdkProviderOptions } from './ai-sdk/ai-sdk-provider.js';
export type {
  AiSdkCallOptions,
  AiSdkExtraCallOptions,
  AiSdkFunctionTool,
  AiSdkJsonValue,
  AiSdkLanguageModel,
  AiSdkMessage,
  AiSdkReasoningPart,
  AiSdkSharedOptions,
  AiSdkStreamPart,
  AiSdkTextPart,
  AiSdkToolCallPart,
  AiSdkToolResultPart,
} from './ai-sdk/ai-sdk-model.js';
