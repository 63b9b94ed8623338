import { NO_ITEMS } from '../core/no-items.js';
import type { Tool } from '../core/tool.js';

/**
 * The deferred tools activated so far (by `tool_search`, or up front by an `always` filter
 * group). Each conversation has one (`ActivationStore`); a set given to `createAgent({ activated })`
 * is instead shared by every conversation of the agents it is given to. It holds the tools
 * themselves, so an agent granted the set (a sub-agent) can run every tool it advertises from it.
 *
 * @example
 * ```ts
 * const activated = new ActivatedToolSet();
 * const child = createAgent({ provider, model, tools: [], activated });
 * const research = defineTool({
 *   name: 'research', description: 'Asks the research agent', parameters: z.object({ question: z.string() }),
 *   execute: async ({ question }, ctx) => (await child.complete({ message: question, signal: ctx.signal })).text,
 * });
 * const parent = createAgent({ provider, model, tools: [research], deferredTools, activated });
 * ```
 */
export class ActivatedToolSet {
  /** Made on the first activation: most turns activate nothing, and a turn keeps its set alive. */
  #tools: Map<string, Tool> | undefined = undefined;
  #version = 0;
  #names: readonly string[] = NO_ITEMS;
  #namesVersion = 0;

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.activate(tool);
  }

  /** Adds a tool; true when it was not active yet. A different tool under an active name replaces it. */
  activate(tool: Tool): boolean {
    const tools = (this.#tools ??= new Map());
    const current = tools.get(tool.name);
    if (current === tool) return false;
    tools.set(tool.name, tool);
    this.#version++;
    return current === undefined;
  }

  has(name: string): boolean {
    return this.#tools?.has(name) ?? false;
  }

  get(name: string): Tool | undefined {
    return this.#tools?.get(name);
  }

  get size(): number {
    return this.#tools?.size ?? 0;
  }

  /** Grows by one on every change; effective tools are rebuilt only when it moved. */
  get version(): number {
    return this.#version;
  }

  names(): readonly string[] {
    // one array per version, shared by the snapshots taken meanwhile (two per iteration)
    if (this.#namesVersion !== this.#version) {
      this.#names = this.#tools === undefined || this.#tools.size === 0 ? NO_ITEMS : Object.freeze([...this.#tools.keys()]);
      this.#namesVersion = this.#version;
    }
    return this.#names;
  }

  tools(): Tool[] {
    return this.#tools ? [...this.#tools.values()] : [];
  }
}
