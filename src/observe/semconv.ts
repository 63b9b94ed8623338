/**
 * The OpenTelemetry GenAI semantic-convention names this library emits, copied here (rather
 * than importing the incubating entry point of `@opentelemetry/semantic-conventions`, whose
 * names may move between minor releases). Values as of semantic conventions 1.45.
 */

export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
export const ATTR_GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
export const ATTR_GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const ATTR_GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
export const ATTR_GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';
/** Opt-in content: the tool call's arguments (scrubbed JSON). */
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
/** Opt-in content: the tool call's result (scrubbed). */
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
/** Stable (not GenAI-specific): the class of error a failed operation ended with. */
export const ATTR_ERROR_TYPE = 'error.type';

export const GEN_AI_OPERATION_INVOKE_AGENT = 'invoke_agent';
export const GEN_AI_OPERATION_CHAT = 'chat';
export const GEN_AI_OPERATION_EXECUTE_TOOL = 'execute_tool';
/** `gen_ai.tool.type` for tools the agent's own process runs. */
export const GEN_AI_TOOL_TYPE_FUNCTION = 'function';

/** This library's own attributes (not part of the conventions). */
export const ATTR_RTL_TOOL_OUTCOME = 'rtl.tool.outcome';
export const ATTR_RTL_TOOL_SLOT = 'rtl.tool.slot';
export const ATTR_RTL_ITERATION = 'rtl.iteration';
export const ATTR_RTL_TURN_REASON = 'rtl.turn.reason';
export const ATTR_RTL_TURN_ITERATIONS = 'rtl.turn.iterations';

/** The model that answered, as the provider reported it. */
export const ATTR_GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
/** The response's id, as the provider reported it. */
export const ATTR_GEN_AI_RESPONSE_ID = 'gen_ai.response.id';
/** Why the model stopped (an array, one reason per choice). */
export const ATTR_GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
export const ATTR_GEN_AI_REQUEST_TEMPERATURE = 'gen_ai.request.temperature';
/** Stable: the server's host name and port. */
export const ATTR_SERVER_ADDRESS = 'server.address';
export const ATTR_SERVER_PORT = 'server.port';
/** Stable: the span event an exception is recorded as, and its attributes. */
export const EVENT_EXCEPTION = 'exception';
export const ATTR_EXCEPTION_TYPE = 'exception.type';
export const ATTR_EXCEPTION_MESSAGE = 'exception.message';

/** The turn's own id (a conversation spans many turns). */
export const ATTR_RTL_TURN_ID = 'rtl.turn.id';
/** Span event on `invoke_agent` for a slot decided by preparation: its tool never ran, so it has no `execute_tool` span. */
export const EVENT_RTL_TOOL_NOT_EXECUTED = 'rtl.tool.not_executed';
