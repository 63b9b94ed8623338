import type { ChatMessage } from '../../core/messages.js';
import { argumentsObject } from '../arguments-object.js';
import type { AiSdkMessage, AiSdkSharedOptions, AiSdkReasoningPart, AiSdkToolCallPart, AiSdkToolResultPart } from './ai-sdk-model.js';

/** The family name of the reasoning parts `aiSdkProvider` makes and reads back. */
export const AI_SDK_REASONING = 'ai-sdk';

/**
 * A history in OpenAI Chat shape as an AI SDK prompt (the spec's `LanguageModelV2Prompt` /
 * `V3Prompt`): system text as it is; user text as a text part; an assistant turn as its reasoning
 * parts (those of the `'ai-sdk'` family, with their provider metadata as `providerOptions`), its
 * text and its tool calls (arguments parsed: the spec wants a JSON value; text that is not JSON is
 * sent as `{}`, as the loop ran it; a call's provider metadata, kept as an `'ai-sdk'` part
 * `{ toolCallId, providerMetadata }`, as its `providerOptions`); each run of tool messages as one
 * tool message whose results are `text`, or `error-text` for a failed slot, named after the call
 * they answer.
 *
 * @example
 * ```ts
 * aiSdkPrompt([{ role: 'user', content: 'hi' }]); // [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]
 * ```
 */
export function aiSdkPrompt(messages: readonly ChatMessage[]): AiSdkMessage[] {
  const prompt: AiSdkMessage[] = [];
  const names = new Map<string, string>();
  let results: AiSdkToolResultPart[] | undefined;
  for (const message of messages) {
    if (message.role !== 'tool') results = undefined;
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        break;
      case 'assistant': {
        const content: (AiSdkReasoningPart | AiSdkToolCallPart | { type: 'text'; text: string })[] = [];
        const callMetadata = new Map<string, AiSdkSharedOptions>();
        for (const { provider, data } of message.reasoning ?? []) {
          if (provider !== AI_SDK_REASONING) continue;
          if (typeof data.text === 'string') content.push(withOptions({ type: 'reasoning', text: data.text }, data.providerMetadata));
          else if (typeof data.toolCallId === 'string' && isObject(data.providerMetadata)) callMetadata.set(data.toolCallId, data.providerMetadata as AiSdkSharedOptions);
        }
        if (typeof message.content === 'string' && message.content.length > 0) content.push({ type: 'text', text: message.content });
        for (const call of message.tool_calls ?? []) {
          names.set(call.id, call.function.name);
          const part: AiSdkToolCallPart = { type: 'tool-call', toolCallId: call.id, toolName: call.function.name, input: argumentsObject(call.function.arguments) };
          content.push(withOptions(part, callMetadata.get(call.id)));
        }
        prompt.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        const part: AiSdkToolResultPart = {
          type: 'tool-result',
          toolCallId: message.tool_call_id,
          toolName: names.get(message.tool_call_id) ?? '',
          output: { type: message.isError === true ? 'error-text' : 'text', value: message.content },
        };
        if (results === undefined) {
          results = [part];
          prompt.push({ role: 'tool', content: results });
        } else results.push(part);
        break;
      }
    }
  }
  return prompt;
}

/** The part with the response's provider metadata as its `providerOptions`, when there is any. */
function withOptions<T extends AiSdkReasoningPart | AiSdkToolCallPart>(part: T, metadata: unknown): T {
  return isObject(metadata) ? { ...part, providerOptions: metadata as AiSdkSharedOptions } : part;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
