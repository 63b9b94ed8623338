import { EMPTY, finalize, from, type Observable, type OperatorFunction, type Subscriber, type Subscription, type TeardownLogic } from 'rxjs';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import type { TurnInput } from '../core/turn-input.js';
import { scrubCredentials } from '../results/scrub.js';
import { StageObservable } from '../runtime/stage-observable.js';
import { subscribeStage } from '../runtime/stage-subscriber.js';
import type { ResolvedAgentExecution, TurnContext } from '../runtime/resolved-execution.js';
import { createQuietTurnContext, createTurnContext, steer } from '../runtime/turn-context.js';
import { whenCancelled } from '../runtime/when-cancelled.js';
import { expandSteps } from './expand-steps.js';
import { iterate } from './iterate.js';
import { isIterationStep, type IterationStep } from './iteration-step.js';
import { startSnapshot } from './turn-snapshot.js';

/**
 * Runs one turn as a cold Observable of events: `iterate` from the turn's first snapshot,
 * driven by `expand` (`expandSteps`: expand's contract, with the events that expand to nothing
 * not subscribed) (each `next` step's snapshot starts the next iteration) until the model
 * answers without tool calls, the turn is cancelled, or the iteration cap is reached; the
 * `done` step becomes the `done` event. Aborting `input.signal` closes the unfinished slots
 * (`interrupted`), appends the round, emits `done` with reason 'cancelled' and completes;
 * unsubscribing tears everything down. Hard failures error the Observable with a ToolLoopError.
 *
 * ```
 * provider 1: --c|             (asks for a tool)
 * tool:          --r|
 * provider 2:        --t|      (answers)
 * events:     i-(c)-r-i--t(d|)
 * ```
 * @example
 * ```ts
 * runToolLoop(resolved, { message: 'What is 2+2?' }).subscribe((e) => console.log(e.type));
 * ```
 * @param resolved The agent's resolved bundle (`agent.resolved`).
 * @param input The turn's input.
 * @return The turn's events, ending with `done`.
 */
export function runToolLoop(resolved: ResolvedAgentExecution, input: TurnInput): Observable<TurnEvent> {
  // defer's contract: each subscription runs a turn of its own
  return new StageObservable(openTurn, resolved, input, false);
}

/**
 * `runToolLoop` for a turn whose events nobody reads (`TurnContext.quiet`): the same turn, the
 * same `done` event, without the events that only show it. Observers are still told of every
 * call; a turn of an agent with observers that can be cancelled keeps its `tool-call` events,
 * which `closeUnfinished` reads to tell them of interrupted slots. What `agent.complete` runs on
 * an agent without a tracer or a logger.
 *
 * ```
 * runToolLoop:   i-(c)-r-i--t(d|)
 * runQuietLoop:  ------------(d|)
 * ```
 * @example
 * ```ts
 * const done = await lastValueFrom(runQuietLoop(resolved, { message: 'What is 2+2?' }));
 * ```
 */
export function runQuietLoop(resolved: ResolvedAgentExecution, input: TurnInput): Observable<TurnEvent> {
  return new StageObservable(openTurn, resolved, input, true);
}

function openTurn(subscriber: Subscriber<TurnEvent>, resolved: ResolvedAgentExecution, input: TurnInput, quiet: boolean): TeardownLogic {
  const turn = quiet ? createQuietTurnContext(resolved, input) : createTurnContext(resolved, input);
  // a turn with a signal listens to it from start to end: its stages come and go without adding and removing the listener each time
  whenCancelled(turn, subscriber);
  const steering = listenToSteering(turn, input);
  const events$ = iterate(turn, startSnapshot(turn, input)).pipe(
    expandSteps((value) => (isIterationStep(value) && value.kind === 'next' ? iterate(turn, value.snapshot) : EMPTY)),
    endTurn(),
  );
  // a turn without steering listens to nothing: no finalize stage to stop listening
  return (steering ? events$.pipe(finalize(() => steering.unsubscribe())) : events$).subscribe(subscriber);
}

/**
 * Ends the turn's stream: events pass through, the `done` step becomes the `done` event, and
 * `next` steps (already expanded into their iteration) are dropped.
 *
 * ```
 * source:  -i-n-i-(d|)       n: next step, d: done step
 * result:  -i---i-(D|)       D: the done event
 * ```
 * @example
 * ```ts
 * iterate(turn, snapshot).pipe(expand(...), endTurn());
 * ```
 * @return The turn's events.
 */
export function endTurn(): OperatorFunction<TurnEvent | IterationStep, TurnEvent> {
  return ended;
}

/** The operator itself: it takes no arguments, so every call of `endTurn` returns this one function. */
function ended(source: Observable<TurnEvent | IterationStep>): Observable<TurnEvent> {
  return new StageObservable(openEnd, source, undefined, undefined);
}

function openEnd(subscriber: Subscriber<TurnEvent>, source: Observable<TurnEvent | IterationStep>): TeardownLogic {
  subscribeStage(source, subscriber, endNext, undefined, undefined, subscriber);
}

function endNext(this: Subscriber<TurnEvent>, value: TurnEvent | IterationStep): void {
  if (isTurnEvent(value)) {
    this.next(value);
    return;
  }
  if (value.kind !== 'done') return;
  const { snapshot } = value;
  const text = scrubAnswer(value.text);
  const history = snapshot.history as TurnEventDone['history'];
  // two literals, not a conditional spread (bench/RESULTS.md, "Object spread")
  this.next(
    value.reason === 'paused'
      ? { type: 'done', text, reason: value.reason, history, iterations: snapshot.iteration, usage: snapshot.usage, snapshot, pending: value.pending ?? [] }
      : { type: 'done', text, reason: value.reason, history, iterations: snapshot.iteration, usage: snapshot.usage },
  );
}

type TurnEventDone = Extract<TurnEvent, { type: 'done' }>;

const RECEIPT = /(rtl-receipt-v2-\d{1,16}-[A-Za-z0-9_-]{43})/;

/** `done.text` is rendered: scrubbed, except the receipts listed in it (MACs, not secrets, and never altered). */
function scrubAnswer(text: string): string {
  if (!text.includes('rtl-receipt-v2-')) return scrubCredentials(text); // no receipt: no split (one per turn)
  return text
    .split(RECEIPT)
    .map((part, i) => (i % 2 === 1 ? part : scrubCredentials(part)))
    .join('');
}

function listenToSteering(turn: TurnContext, input: TurnInput): Subscription | undefined {
  if (input.steering === undefined) return undefined;
  return from(input.steering).subscribe({
    next: (message) => steer(turn, message),
    error: (err: unknown) => turn.resolved.logger.warn({ err, turnId: turn.turnId }, 'steering source failed; ignored'),
  });
}
