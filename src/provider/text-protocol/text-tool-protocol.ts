import type { ToolSpec } from '../../core/tool.js';
import type { TextToolProtocol } from '../provider.js';
import { describeTool, protocolInstructions } from './protocol-instructions.js';
import { scanTextToolCalls } from './parse-text-tool-calls.js';

/** Options of the text tool protocol. */
export interface TextProtocolOptions {
  /** Strict parsing: no protocol section in the prompt, and no calls parsed from text. Default false. */
  readonly strict?: boolean;
}

/**
 * The text tool protocol: the system-prompt section that explains `<tool_call>` blocks and lists
 * the tools (each tool's entry rendered once per spec and reused; the whole section once per
 * list of specs, which an agent's turns share), and the parser for responses.
 *
 * @example
 * ```ts
 * const protocol = textToolProtocol();
 * protocol.instructions([weather.spec]);
 * protocol.parse('<tool_call>{"name": "weather", "arguments": {"city": "Oslo"}}</tool_call>', ['weather']);
 * ```
 */
export function textToolProtocol(options: TextProtocolOptions = {}): TextToolProtocol {
  const entries = new WeakMap<ToolSpec, string>();
  const describe = (spec: ToolSpec): string => {
    let entry = entries.get(spec);
    if (entry === undefined) {
      entry = describeTool(spec);
      entries.set(spec, entry);
    }
    return entry;
  };
  const sections = new WeakMap<readonly ToolSpec[], string>();
  const instructions = (specs: readonly ToolSpec[]): string => {
    // a frozen list cannot change: its section is kept (an agent's turns share one: registry/tool-index.ts)
    if (!Object.isFrozen(specs)) return protocolInstructions(specs, describe);
    let section = sections.get(specs);
    if (section === undefined) {
      section = protocolInstructions(specs, describe);
      sections.set(specs, section);
    }
    return section;
  };
  return Object.freeze({
    strict: options.strict ?? false,
    instructions,
    parse: (text: string, knownTools: readonly string[]) => {
      const { calls, malformed } = scanTextToolCalls(text, knownTools);
      return { calls, malformed };
    },
  });
}
