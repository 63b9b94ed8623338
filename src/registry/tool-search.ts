import { z } from 'zod';
import { TOOL_SEARCH } from '../core/tool.js';
import { defineTool } from '../tool/define-tool.js';
import type { Tool } from '../core/tool.js';
import type { ActivatedToolSet } from './activated-tool-set.js';
import { DEFAULT_TOOL_SEARCH_RESULTS, searchDeferredTools } from './search-deferred-tools.js';

export { TOOL_SEARCH, DEFAULT_TOOL_SEARCH_RESULTS, searchDeferredTools };

/**
 * The most characters the deferred-tools listing spends on `name - description` lines. Past it,
 * the listing names the tools only (one per line), and `tool_search` returns the descriptions
 * and schemas of what it activates.
 */
export const DEFERRED_LISTING_BUDGET = 2_000;

/** What one run's `tool_search` may activate, and where activations go. */
export interface ToolSearchScope {
  /** The deferred tools this run admits (never an excluded one). */
  readonly candidates: readonly Tool[];
  readonly activated: ActivatedToolSet;
}

/** Model-visible texts of tool_search. */
export const toolSearchTexts = {
  noMatch: (query: string) => `No matching deferred tools for query: ${query}`,
  listingHeader:
    `Deferred tools: these tools exist but are not loaded yet. To use one, first call ${TOOL_SEARCH} ` +
    `with query "select:name1,name2" (exact names) or with keywords; the tools it activates can be ` +
    'called from your next step on. Deferred tools (name - description):',
  namesOnlyHeader:
    `Deferred tools: these tools exist but are not loaded yet. To use one, first call ${TOOL_SEARCH} ` +
    `with query "select:name1,name2" (exact names) or with keywords (it also searches their ` +
    'descriptions); the tools it activates can be called from your next step on. Deferred tools (names only):',
} as const;

const parameters = z.object({
  query: z.string().min(1).describe('"select:a,b" activates those exact tool names; anything else is a keyword search'),
  max_results: z.number().int().min(1).max(50).default(DEFAULT_TOOL_SEARCH_RESULTS).describe('keyword search: most tools to activate'),
});

/**
 * The `tool_search` tool without a scope: its spec and argument check, built once per agent.
 * `bindToolSearch` gives it a run's scope.
 *
 * @example
 * ```ts
 * const base = toolSearchBase();
 * const tool = bindToolSearch(base, { candidates: deferred, activated });
 * ```
 */
export function toolSearchBase(): Tool<z.output<typeof parameters>> {
  return defineTool({
    name: TOOL_SEARCH,
    description:
      'Finds deferred tools by keyword or exact name ("select:a,b") and activates them, so they can be called from the next step on. Returns the activated tools with their parameter schemas.',
    parameters,
    risk: 'read',
    execute: () => toolSearchTexts.noMatch(''),
  });
}

/**
 * `tool_search` for one run: activates the matches into the turn's ActivatedToolSet (its
 * conversation's, so other conversations never see them) and lists
 * them with their schemas. Only the scope's candidates can match, so excluded tools never
 * activate.
 *
 * @example
 * ```ts
 * tools.push(bindToolSearch(base, { candidates, activated }));
 * ```
 */
export function bindToolSearch(base: Tool, scope: ToolSearchScope): Tool {
  return Object.freeze({
    ...base,
    execute: (args: { query: string; max_results: number }) => {
      const found = searchDeferredTools(scope.candidates, args.query, args.max_results);
      if (found.length === 0) return toolSearchTexts.noMatch(args.query);
      for (const tool of found) scope.activated.activate(tool);
      return describeActivated(found);
    },
  });
}

/**
 * The system message listing deferred tools as `name - description`, one per line; when those
 * lines would pass `budget` characters (default `DEFERRED_LISTING_BUDGET`), names only, so the
 * listing grows by a name per tool, not by a description.
 *
 * @example
 * ```ts
 * deferredToolsListing([echo]); // '…\nfx__echo - Echoes the given text back'
 * deferredToolsListing(manyTools, 500); // '…(names only):\nfs__read_file\nfs__write_file…'
 * ```
 */
export function deferredToolsListing(tools: readonly Tool[], budget = DEFERRED_LISTING_BUDGET): string {
  const lines = tools.map((tool) => `\n${tool.name} - ${oneLine(tool.description)}`);
  const size = lines.reduce((n, line) => n + line.length, 0);
  if (size <= budget) return toolSearchTexts.listingHeader + lines.join('');
  return toolSearchTexts.namesOnlyHeader + tools.map((tool) => `\n${tool.name}`).join('');
}

function describeActivated(tools: readonly Tool[]): string {
  let text = `Activated ${tools.length} deferred tool${tools.length === 1 ? '' : 's'}; call ${tools.length === 1 ? 'it' : 'them'} from your next step on:`;
  for (const tool of tools) {
    text += `\n- ${tool.name} - ${oneLine(tool.description)}\n  parameters: ${JSON.stringify(tool.spec.parameters)}`;
  }
  return text;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
