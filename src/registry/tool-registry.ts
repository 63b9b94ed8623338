import { DuplicateToolError } from '../core/errors.js';
import type { OpenAIToolSpec, Tool, ToolSpec } from '../core/tool.js';

/**
 * The tools an agent can run, by unique name. Specs are the tools' own frozen specs: listing
 * them never copies a schema.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry([calculator, clock]);
 * client.chat.completions.create({ model, messages, tools: registry.openAITools() });
 * ```
 */
export class ToolRegistry {
  #tools = new Map<string, Tool>();
  /** `#tools` is also a `snapshot()`'s: the next `add` writes to a copy. */
  #lent = false;

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.add(tool);
  }

  /** Adds a tool; throws DuplicateToolError when the name is taken. */
  add(tool: Tool): this {
    if (this.#tools.has(tool.name)) throw new DuplicateToolError(tool.name);
    if (this.#lent) {
      this.#tools = new Map(this.#tools);
      this.#lent = false;
    }
    this.#tools.set(tool.name, tool);
    return this;
  }

  /**
   * The tools by name as they are now, and stay: a later `add` goes to a copy of the registry's
   * Map, never to this one. An agent's tool index is one (no second Map for the same tools).
   *
   * @example
   * ```ts
   * const now = registry.snapshot();
   * registry.add(search);
   * now.has('search'); // false
   * ```
   */
  snapshot(): ReadonlyMap<string, Tool> {
    this.#lent = true;
    return this.#tools;
  }

  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  get size(): number {
    return this.#tools.size;
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  tools(): Tool[] {
    return [...this.#tools.values()];
  }

  /** Provider-neutral specs, in registration order. */
  specs(): ToolSpec[] {
    return this.tools().map((tool) => tool.spec);
  }

  /** The OpenAI Chat Completions `tools` array. */
  openAITools(): OpenAIToolSpec[] {
    return this.tools().map((tool) => tool.openAI);
  }
}
