import type { ColumnCipher } from './column-cipher.js';
import { holding } from './sql-fence.js';
import type { SqlDriver } from './sql-migrations.js';
import type { TurnStore } from './turn-store.js';

/** The part of the SQL store that a conversation keeps across its turns: allow-list, activated tools, history. */
export type SqlConversationState = Pick<TurnStore, 'allow' | 'allowList' | 'activate' | 'activations' | 'saveHistory' | 'history' | 'conversationState'>;

/**
 * What a conversation keeps across turns on a Postgres database: its allow-list (`rtl_allow`),
 * the deferred tools it activated (`rtl_activation`) and its history (`rtl_history`, encrypted
 * when the store has a key, its writes fenced by the writing turn's attempt); `conversationState`
 * reads the three in one statement.
 *
 * @example
 * ```ts
 * const store = { ...sqlConversationState(driver, cipher, Date.now), ...rest };
 * ```
 */
export function sqlConversationState(driver: SqlDriver, cipher: ColumnCipher, now: () => number): SqlConversationState {
  const q = driver.query.bind(driver);
  return {
    async allow(conversationId, toolName) {
      await q('INSERT INTO rtl_allow (conversation_id, tool_name) VALUES ($1, $2) ON CONFLICT DO NOTHING', [conversationId, toolName]);
    },
    async allowList(conversationId) {
      return (await q<{ tool_name: string }>('SELECT tool_name FROM rtl_allow WHERE conversation_id = $1 ORDER BY tool_name', [conversationId])).map((r) => r.tool_name);
    },
    async activate(conversationId, toolNames) {
      if (toolNames.length === 0) return;
      await q('INSERT INTO rtl_activation (conversation_id, tool_name) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [conversationId, [...toolNames]]);
    },
    async activations(conversationId) {
      return (await q<{ tool_name: string }>('SELECT tool_name FROM rtl_activation WHERE conversation_id = $1 ORDER BY tool_name', [conversationId])).map((r) => r.tool_name);
    },
    async saveHistory(conversationId, history, fence) {
      const rows = await q(
        `INSERT INTO rtl_history (conversation_id, history, updated_at) SELECT $1, $2, $3 WHERE ${holding('$4', 5)}
         ON CONFLICT (conversation_id) DO UPDATE SET history = EXCLUDED.history, updated_at = EXCLUDED.updated_at RETURNING conversation_id`,
        [conversationId, JSON.stringify(cipher.seal(history, `history:${conversationId}`)), now(), fence?.turnId ?? null, fence?.attempt ?? null],
      );
      return rows.length > 0;
    },
    async history(conversationId) {
      const stored = (await q<{ history: unknown }>('SELECT history FROM rtl_history WHERE conversation_id = $1', [conversationId]))[0]?.history;
      return stored === undefined ? [] : cipher.open(stored, `history:${conversationId}`);
    },
    async conversationState(conversationId, options) {
      const withHistory = options?.history === true;
      const [row] = await q<{ allow_list: string[]; activations: string[]; history: unknown }>(
        `SELECT ARRAY(SELECT tool_name FROM rtl_allow WHERE conversation_id = $1 ORDER BY tool_name) AS allow_list,
                ARRAY(SELECT tool_name FROM rtl_activation WHERE conversation_id = $1 ORDER BY tool_name) AS activations,
                CASE WHEN $2::boolean THEN (SELECT history FROM rtl_history WHERE conversation_id = $1) END AS history`,
        [conversationId, withHistory],
      );
      const { allow_list: allowList, activations } = row;
      if (!withHistory) return { allowList, activations };
      return { allowList, activations, history: row.history === null ? [] : cipher.open(row.history, `history:${conversationId}`) };
    },
  };
}
