import { DurableStoreError } from './durable-errors.js';
import { checkId, isStoreId } from './durable-ids.js';
import type { TurnStatus, TurnStore } from './turn-store.js';

/** A count a store keeps in an integer column (an attempt, a seal's sequence). */
function whole(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new DurableStoreError(`The ${what} must be a whole number.`);
  return value;
}

const STATUSES: readonly unknown[] = ['queued', 'running', 'parked', 'done', 'failed'] satisfies TurnStatus[];

/**
 * A turn store that checks every id it is given (`idProblem`) before the store sees it, so every
 * backend answers alike and a database never gets a value it would refuse with an error of its
 * own (`invalid byte sequence for encoding "UTF8": 0x00`): a write with an id that is not one
 * (not a string, empty, longer than 256 characters, a NUL, a lone surrogate) is refused with a
 * `DurableStoreError`; a read finds nothing, as no record can have that id. The built-in stores
 * come checked.
 *
 * @example
 * ```ts
 * const store = checkedStore(myTurnStore);
 * await store.getTurn('a\u0000b');              // undefined
 * await store.decide({ turnId: 'a\u0000b', … }); // rejects: DurableStoreError
 * ```
 */
export function checkedStore(store: TurnStore): TurnStore {
  const optional = (value: unknown, what: string): void => {
    if (value !== undefined && value !== null) checkId(value, what);
  };
  return {
    backend: store.backend,
    async createTurn(turn) {
      checkId(turn.turnId, 'turn id');
      checkId(turn.agent, 'agent name');
      optional(turn.conversationId, 'conversation id');
      optional(turn.owner, 'owner');
      return store.createTurn(turn);
    },
    getTurn: async (turnId) => (isStoreId(turnId) ? store.getTurn(turnId) : undefined),
    async listTurns(filter = {}) {
      if (filter.status !== undefined && !STATUSES.includes(filter.status)) return [];
      if (filter.conversationId !== undefined && !isStoreId(filter.conversationId)) return [];
      return store.listTurns(filter);
    },
    async claimTurn(turnId, owner, from, options) {
      checkId(owner, 'owner');
      if (!isStoreId(turnId) || !Array.isArray(from)) return undefined;
      return store.claimTurn(turnId, owner, from.filter((s) => STATUSES.includes(s)), { alone: options?.alone === true });
    },
    updateTurn: async (turnId, attempt, patch) => store.updateTurn(checkId(turnId, 'turn id'), whole(attempt, 'attempt'), patch),
    async decide(decision) {
      checkId(decision.turnId, 'turn id');
      checkId(decision.requestId, 'request id');
      checkId(decision.decidedBy, 'decider (decidedBy)');
      return store.decide(decision);
    },
    decisions: async (turnId) => (isStoreId(turnId) ? store.decisions(turnId) : []),
    claimSnapshot: async (turnId, sequence) => store.claimSnapshot(checkId(turnId, 'turn id'), whole(sequence, 'snapshot sequence')),
    async appendAudit(record) {
      checkId(record.turnId, 'turn id');
      optional(record.conversationId, 'conversation id');
      return store.appendAudit(record);
    },
    async auditLog(filter = {}) {
      if (filter.turnId !== undefined && !isStoreId(filter.turnId)) return [];
      if (filter.conversationId !== undefined && !isStoreId(filter.conversationId)) return [];
      return store.auditLog(filter);
    },
    allow: async (conversationId, toolName) => store.allow(checkId(conversationId, 'conversation id'), checkId(toolName, 'tool name')),
    allowList: async (conversationId) => (isStoreId(conversationId) ? store.allowList(conversationId) : []),
    async activate(conversationId, toolNames) {
      checkId(conversationId, 'conversation id');
      for (const name of toolNames) checkId(name, 'tool name');
      return store.activate(conversationId, toolNames);
    },
    activations: async (conversationId) => (isStoreId(conversationId) ? store.activations(conversationId) : []),
    saveHistory: async (conversationId, history) => store.saveHistory(checkId(conversationId, 'conversation id'), history),
    history: async (conversationId) => (isStoreId(conversationId) ? store.history(conversationId) : []),
    appendEvents: async (turnId, events) => store.appendEvents(checkId(turnId, 'turn id'), events),
    events: async (turnId, afterSeq) => (isStoreId(turnId) ? store.events(turnId, Number.isSafeInteger(afterSeq) ? afterSeq : 0) : []),
    watch: (listener) => store.watch(listener),
    close: () => store.close(),
  };
}
