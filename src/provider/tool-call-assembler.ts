import type { ProviderToolCall } from './provider.js';

/** One streamed tool-call fragment, in the shape of a Chat Completions `delta.tool_calls` entry. */
export interface ToolCallDelta {
  readonly index?: number;
  readonly id?: string | null;
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
}

interface Entry {
  index: number;
  id: string;
  name: string;
  args: string;
}

/**
 * Assembles streamed tool-call fragments into complete calls. Fragments are grouped by `index`:
 * the first fragment of an index brings the id and name (later copies are ignored), and argument
 * text is concatenated in arrival order. Calls come out in the order their index first appeared.
 *
 * Servers that reuse one index for several calls (each with its own id, after the previous call's
 * arguments were complete) or that leave `index` out are handled: a new id on an index that
 * already has one starts a new call.
 *
 * @example
 * ```ts
 * const calls = new ToolCallAssembler();
 * calls.push({ index: 0, id: 'call_1', function: { name: 'add', arguments: '{"a":' } });
 * calls.push({ index: 0, function: { arguments: '1}' } });
 * calls.complete(); // [{ id: 'call_1', name: 'add', arguments: '{"a":1}' }]
 * ```
 */
export class ToolCallAssembler {
  private readonly entries: Entry[] = [];
  private readonly byIndex = new Map<number, Entry>();

  /** How many calls have started. */
  get size(): number {
    return this.entries.length;
  }

  /** Adds one fragment. */
  push(delta: ToolCallDelta): void {
    const id = delta.id ?? '';
    const name = delta.function?.name ?? '';
    const args = delta.function?.arguments ?? '';
    const index = typeof delta.index === 'number' ? delta.index : this.implicitIndex(id);
    let entry = this.byIndex.get(index);
    if (entry !== undefined && id.length > 0 && entry.id.length > 0 && id !== entry.id) {
      entry = undefined; // the same index reused for a new call
    }
    if (entry === undefined) {
      entry = { index, id, name, args };
      this.entries.push(entry);
      this.byIndex.set(index, entry);
      return;
    }
    if (entry.id.length === 0) entry.id = id;
    if (entry.name.length === 0) entry.name = name;
    entry.args += args;
  }

  /** The assembled calls, in order of first appearance. Calls without a name are dropped. */
  complete(): ProviderToolCall[] {
    const calls: ProviderToolCall[] = [];
    for (const entry of this.entries) {
      if (entry.name.length === 0) continue;
      calls.push(entry.id.length > 0 ? { id: entry.id, name: entry.name, arguments: entry.args } : { name: entry.name, arguments: entry.args });
    }
    return calls;
  }

  /** Without an index: a fragment with a new id starts a call, anything else continues the last. */
  private implicitIndex(id: string): number {
    const last = this.entries.at(-1);
    if (last === undefined) return 0;
    if (id.length > 0 && last.id.length > 0 && id !== last.id) return last.index + 1;
    return last.index;
  }
}
