import type { Tool } from '../core/tool.js';

/** `tool_search`'s default `max_results`. */
export const DEFAULT_TOOL_SEARCH_RESULTS = 5;

/** The most tools one keyword search activates, ties on the name included (`max_results`' own cap). */
export const MAX_TOOL_SEARCH_RESULTS = 50;

/** How a candidate matched a keyword query; compared field by field, the first difference decides. */
interface Rank {
  readonly tool: Tool;
  /** 3: the query is the tool's name; 2: its `{tool}` part, as written; 1: that part in another letter case. */
  readonly exact: number;
  /** Query terms that are a whole word of the name (2 each) or a part of it (1 each). */
  readonly name: number;
  /** The words of the `{tool}` part: of two names that match alike, the one with less besides is nearer. */
  readonly words: number;
  /** Name words that a term matches letter for letter, as the query wrote it. */
  readonly cased: number;
  /** Query terms that begin a word of the description (each term once). */
  readonly description: number;
  readonly order: number;
}

/**
 * The deferred tools a query matches: `select:a,b` → those exact names (in that order); any
 * other query → a keyword search over names and descriptions, best first, at most `maxResults`.
 * Names rank first, so what a server writes in a description never outranks a tool whose name
 * the model asked for: the whole query equal to a tool's name (or to its `{tool}` part); then
 * more terms found in the name (a whole word of it counts twice a part of one); then the
 * `{tool}` part with fewer words besides. A tie there is not broken by what a server writes: a
 * tool whose name matches exactly as well as the last one taken comes too (up to
 * `MAX_TOOL_SEARCH_RESULTS`), so an impostor with the same name is never activated instead of the
 * tool, only beside it. The order among them: the query's letter case, then terms that begin a
 * word of the description (each once, however often it is repeated), then `deferredTools`' order.
 * Tools that only the description matches come after, by those terms, then the nearer name.
 *
 * @example
 * ```ts
 * searchDeferredTools(deferred, 'select:github__search', 5);
 * searchDeferredTools(deferred, 'pull request', 3);
 * ```
 */
export function searchDeferredTools(candidates: readonly Tool[], query: string, maxResults = DEFAULT_TOOL_SEARCH_RESULTS): Tool[] {
  const q = query.trim();
  if (/^select:/i.test(q)) {
    const found: Tool[] = [];
    for (const name of q.slice('select:'.length).split(',')) {
      const tool = candidates.find((t) => t.name === name.trim());
      if (tool && !found.includes(tool)) found.push(tool);
    }
    return found;
  }
  const written = [...new Set(q.split(/[\s,]+/).filter((t) => t.length > 0))];
  if (written.length === 0) return [];
  const terms = [...new Set(written.map((t) => t.toLowerCase()))];
  const ranks: Rank[] = [];
  candidates.forEach((tool, order) => {
    const rank = rankOf(tool, q, written, terms, order);
    if (rank.exact > 0 || rank.name > 0 || rank.description > 0) ranks.push(rank);
  });
  ranks.sort(compare);
  const taken = ranks.slice(0, Math.max(1, maxResults));
  const last = taken[taken.length - 1];
  if (last !== undefined && (last.exact > 0 || last.name > 0)) {
    for (const rank of ranks.slice(taken.length)) if (taken.length < MAX_TOOL_SEARCH_RESULTS && sameName(rank, last)) taken.push(rank);
  }
  return taken.map((r) => r.tool);
}

function rankOf(tool: Tool, query: string, written: readonly string[], terms: readonly string[], order: number): Rank {
  const server = tool.attribution.server;
  const bare = server !== undefined && tool.name.startsWith(`${server}__`) ? tool.name.slice(server.length + 2) : tool.name;
  const exact = query === tool.name ? 3 : query === bare ? 2 : query.toLowerCase() === bare.toLowerCase() ? 1 : 0;
  const nameWords = wordsOf(tool.name);
  const lowerName = tool.name.toLowerCase();
  const lowerWords = new Set(nameWords.map((w) => w.toLowerCase()));
  let name = 0;
  for (const term of terms) name += lowerWords.has(term) ? 2 : lowerName.includes(term) ? 1 : 0;
  const casedWords = new Set(nameWords);
  const cased = written.filter((term) => casedWords.has(term)).length;
  const described = wordsOf(tool.description.toLowerCase());
  let description = 0;
  for (const term of terms) if (wordsOf(term).every((part) => described.some((word) => word.startsWith(part)))) description += 1;
  return { tool, exact, name, words: wordsOf(bare).length, cased, description, order };
}

const sameName = (a: Rank, b: Rank): boolean => a.exact === b.exact && a.name === b.name && a.words === b.words;

function compare(a: Rank, b: Rank): number {
  const byName = b.exact - a.exact || b.name - a.name;
  if (byName !== 0) return byName;
  // matched by the name alike: the nearer name; matched by the description only: the description
  const near = a.exact > 0 || a.name > 0 ? a.words - b.words || b.cased - a.cased || b.description - a.description : b.description - a.description || a.words - b.words;
  return near || a.order - b.order;
}

/** Words of a name or a text: runs of letters and digits (`gh__list_issues` → gh, list, issues). */
const wordsOf = (text: string): string[] => text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
