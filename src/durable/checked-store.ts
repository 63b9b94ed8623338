import { DurableStoreError } from './durable-errors.js';
import { checkId, isStoreId } from './durable-ids.js';
import type { TurnControl, TurnStatus, TurnStore } from './turn-store.js';

/** A count a store keeps in an integer column (an attempt, a seal's sequence). */
function whole(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new DurableStoreError(`The ${what} must be a whole number.`);
  return value;
}

/** A lease's length: a whole number of milliseconds above 0 (undefined: no lease). */
function leaseOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) <= 0) throw new DurableStoreError('A lease must be a whole number of milliseconds above 0.');
  return value as number;
}

/** A control as data: a cancel or a steering message (a string), each with who sent it (an id). */
function controlOf(control: TurnControl): TurnControl {
  const by = checkId(control?.by, 'sender (by)');
  if (control.kind === 'cancel') return { kind: 'cancel', by };
  if (control.kind === 'steer' && typeof control.message === 'string') return { kind: 'steer', message: control.message, by };
  throw new DurableStoreError("A control is { kind: 'cancel', by } or { kind: 'steer', message, by } with a string message.");
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
      return store.createTurn({ ...turn, leaseMs: leaseOf(turn.leaseMs) });
    },
    getTurn: async (turnId) => (isStoreId(turnId) ? store.getTurn(turnId) : undefined),
    async listTurns(filter = {}) {
      const { status } = filter;
      const statuses = status === undefined ? undefined : (Array.isArray(status) ? status : [status]).filter((s: unknown) => STATUSES.includes(s));
      if (statuses?.length === 0) return [];
      if (filter.conversationId !== undefined && !isStoreId(filter.conversationId)) return [];
      return store.listTurns({ ...filter, ...(statuses ? { status: statuses } : {}) });
    },
    async claimTurn(turnId, owner, from, options) {
      checkId(owner, 'owner');
      if (!isStoreId(turnId) || !Array.isArray(from)) return undefined;
      const leaseMs = leaseOf(options?.leaseMs);
      return store.claimTurn(turnId, owner, from.filter((s) => STATUSES.includes(s)), {
        alone: options?.alone === true,
        inOrder: options?.inOrder === true,
        expired: options?.expired === true,
        ...(leaseMs ? { leaseMs } : {}),
      });
    },
    updateTurn: async (turnId, attempt, patch, events) => store.updateTurn(checkId(turnId, 'turn id'), whole(attempt, 'attempt'), patch, events),
    renewLease: async (turnId, attempt, leaseMs) => store.renewLease(checkId(turnId, 'turn id'), whole(attempt, 'attempt'), leaseOf(leaseMs ?? 0)!),
    expiredTurns: async (agent) => (isStoreId(agent) ? store.expiredTurns(agent) : []),
    control: async (turnId, control) => store.control(checkId(turnId, 'turn id'), controlOf(control)),
    takeControls: async (turnId, attempt) => store.takeControls(checkId(turnId, 'turn id'), whole(attempt, 'attempt')),
    watchControls: (turnId, listener) => store.watchControls(checkId(turnId, 'turn id'), listener),
    async decide(decision) {
      checkId(decision.turnId, 'turn id');
      checkId(decision.requestId, 'request id');
      checkId(decision.decidedBy, 'decider (decidedBy)');
      return store.decide(decision);
    },
    decisions: async (turnId) => (isStoreId(turnId) ? store.decisions(turnId) : []),
    claimSnapshot: async (turnId, sequence) => store.claimSnapshot(checkId(turnId, 'turn id'), whole(sequence, 'snapshot sequence')),
    async appendAudit(record, attempt) {
      checkId(record.turnId, 'turn id');
      optional(record.conversationId, 'conversation id');
      return store.appendAudit(record, attempt === undefined ? undefined : whole(attempt, 'attempt'));
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
    async saveHistory(conversationId, history, fence) {
      checkId(conversationId, 'conversation id');
      return store.saveHistory(conversationId, history, fence && { turnId: checkId(fence.turnId, 'turn id'), attempt: whole(fence.attempt, 'attempt') });
    },
    history: async (conversationId) => (isStoreId(conversationId) ? store.history(conversationId) : []),
    conversationState: async (conversationId, options) =>
      isStoreId(conversationId) ? store.conversationState(conversationId, { history: options?.history === true }) : { allowList: [], activations: [], ...(options?.history === true ? { history: [] } : {}) },
    appendEvents: async (turnId, events, attempt) => store.appendEvents(checkId(turnId, 'turn id'), events, attempt === undefined ? undefined : whole(attempt, 'attempt')),
    events: async (turnId, afterSeq) => (isStoreId(turnId) ? store.events(turnId, Number.isSafeInteger(afterSeq) ? afterSeq : 0) : []),
    async prune(options) {
      const { olderThanMs, batchSize } = options ?? ({} as Partial<typeof options>);
      if (typeof olderThanMs !== 'number' || !(olderThanMs >= 0) || olderThanMs === Infinity) throw new DurableStoreError('prune: olderThanMs must be a number of milliseconds, 0 or more.');
      if (batchSize !== undefined && (!Number.isSafeInteger(batchSize) || batchSize < 1)) throw new DurableStoreError('prune: batchSize must be a whole number, 1 or more.');
      return store.prune({ olderThanMs, ...(batchSize === undefined ? {} : { batchSize }) });
    },
    watch: (listener) => store.watch(listener),
    close: () => store.close(),
  };
}
