import type { ProviderRequest } from '../provider/provider.js';
import type { RequestSystem } from '../core/loop-control.js';
import type { ChatMessage } from '../core/messages.js';
import type { IterationContext } from '../context/resolved-execution.js';

/**
 * Builds the iteration's provider request: agent instructions, the text-protocol section (text
 * providers, unless strict), recalled memory and the snapshot's pending notes as system
 * messages, then the history. Native providers get the effective tools' shared specs; a turn
 * with an output schema asks for it (`output`). `withTools: false` (the max-iteration summary,
 * which asks for prose) offers no tools and asks for no output format. `prompt` (from
 * `planIteration`) stands in for the agent's instructions in this request only, its appended
 * messages right after them.
 *
 * @example
 * ```ts
 * callProvider(it, buildRequest(it));
 * ```
 */
export function buildRequest(it: IterationContext, withTools = true, prompt?: RequestSystem): ProviderRequest {
  const { resolved, turn, snapshot } = it;
  const { provider } = resolved;
  const specs = withTools ? turn.tools.specs : [];
  const system: ChatMessage[] = [];
  const instructions = prompt ? prompt.instructions : resolved.instructions;
  if (instructions) system.push({ role: 'system', content: instructions });
  if (prompt) for (const content of prompt.appended) system.push({ role: 'system', content });
  const protocol = provider.textProtocol;
  if (!provider.nativeTools && protocol && specs.length > 0 && !protocol.strict && !resolved.knobs.strictToolParsing) {
    system.push({ role: 'system', content: protocol.instructions(specs) });
  }
  if (withTools && turn.tools.deferredListing) system.push({ role: 'system', content: turn.tools.deferredListing });
  if (turn.memory.length > 0) {
    system.push({
      role: 'system',
      content: `Recalled memory (context for this turn only):\n${turn.memory.map((m) => `- ${m}`).join('\n')}`,
    });
  }
  for (const note of snapshot.notes) system.push({ role: 'system', content: note });
  const messages = system.length > 0 ? [...system, ...snapshot.history] : [...snapshot.history];
  // Spelled out, not `{ ...req, tools }` (bench/RESULTS.md, "Choices in src/ made for speed").
  const model = it.model;
  const { temperature } = resolved;
  let request: ProviderRequest;
  if (provider.nativeTools && specs.length > 0) {
    request = temperature !== undefined ? { model, messages, tools: specs, temperature } : { model, messages, tools: specs };
  } else {
    request = temperature !== undefined ? { model, messages, temperature } : { model, messages };
  }
  const output = withTools ? turn.output?.format : undefined;
  return output === undefined ? request : { ...request, output };
}
