import type { Observable } from 'rxjs';
import type { SlotResult } from './calls.js';
import type { TokenUsage } from './events.js';
import type { ChatMessage } from './messages.js';
import { NO_ITEMS } from './no-items.js';

/** What a loop-control function sees of the turn: plain data, a copy it may keep (changing it changes nothing). */
export interface LoopState {
  /** For `stopWhen`, the iteration whose round just joined history; for `prepareIteration`, the one about to be sent (1 for the first). */
  readonly iteration: number;
  /** The model the next request goes to. */
  readonly model: string;
  /** The history so far (the input history, the user message, each round). */
  readonly history: readonly ChatMessage[];
  /** Tokens the turn's requests used so far. */
  readonly usage: TokenUsage;
}

/** What a `stopWhen` condition sees: the turn after a round, and that round's results in slot order (none after an answer). */
export interface StopState extends LoopState {
  readonly results: readonly SlotResult[];
}

/** A condition that ends the turn (`done`, reason `'stopped'`) when it returns true. It must return a boolean, synchronously. */
export type StopCondition = (state: StopState) => boolean;

/** What `prepareIteration` sees: the turn before a request, and the names of the tools that request may offer. */
export interface PrepareState extends LoopState {
  readonly tools: readonly string[];
}

/** What one request changes (`prepareIteration`); every field is optional. */
export interface IterationPlan {
  /** Offer only these of `state.tools` in this iteration (names it does not have are left out, with a warning). */
  readonly tools?: readonly string[];
  /** Switch to this model, from this request on (as `switchModel` does). */
  readonly model?: string;
  /** For this request only: a string replaces the agent's `instructions`; `{ append }` adds a system message after them. */
  readonly system?: string | { readonly append: string };
}

/** What `prepareIteration` returns: a plan (or undefined for none), directly or as a Promise or Observable (its first value). */
export type PrepareResult = IterationPlan | undefined | void;

/** Called before each iteration's request; the turn waits for its answer. */
export type PrepareIteration = (state: PrepareState) => PrepareResult | PromiseLike<PrepareResult> | Observable<PrepareResult>;

/** The options of loop control, as `createAgent` and `TurnInput` take them. */
export interface LoopControlOptions {
  /** End the turn after a round when one of these returns true (`stepCountIs`, `hasToolCall`, or your own). */
  readonly stopWhen?: StopCondition | readonly StopCondition[];
  /** Narrow the tools, switch the model or change the system prompt before each request. */
  readonly prepareIteration?: PrepareIteration;
}

/** A turn's loop control: the agent's, then the turn's. */
export interface LoopControl {
  readonly stopWhen: readonly StopCondition[];
  readonly prepareIteration: readonly PrepareIteration[];
}

/**
 * The loop control of `options` (an agent's or a turn's), after `before` (the agent's, for a
 * turn): undefined when there is none. A value that is not a function (or, for `stopWhen`, an
 * array of functions) throws `fail(message)`.
 *
 * @example
 * ```ts
 * const control = loopControlOf({ stopWhen: stepCountIs(3) }, (m) => new ConfigurationError(m));
 * ```
 */
export function loopControlOf(options: LoopControlOptions, fail: (message: string) => Error, before?: LoopControl): LoopControl | undefined {
  const { stopWhen, prepareIteration } = options;
  if (stopWhen === undefined && prepareIteration === undefined) return before;
  const conditions = stopWhen === undefined ? NO_ITEMS : Array.isArray(stopWhen) ? stopWhen : [stopWhen];
  if (!conditions.every((c) => typeof c === 'function')) throw fail('stopWhen must be a function or an array of functions (stepCountIs, hasToolCall, or your own).');
  if (prepareIteration !== undefined && typeof prepareIteration !== 'function') throw fail('prepareIteration must be a function.');
  const prepares = prepareIteration === undefined ? NO_ITEMS : [prepareIteration];
  return Object.freeze({
    stopWhen: Object.freeze([...(before?.stopWhen ?? NO_ITEMS), ...conditions]),
    prepareIteration: Object.freeze([...(before?.prepareIteration ?? NO_ITEMS), ...prepares]),
  });
}

/** One request's system prompt after `prepareIteration`: the instructions (the agent's, or a plan's in their place), then the appended messages. */
export interface RequestSystem {
  readonly instructions: string | undefined;
  readonly appended: readonly string[];
}
