import { defer, EMPTY, expand, filter, map, type Observable, type OperatorFunction, takeWhile, using } from 'rxjs';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import { turnInputWith, type TurnInput } from '../core/turn-input.js';
import { scrubCredentials } from '../results/scrub.js';
import { abortOnUnsubscribe } from '../core/abort-on-unsubscribe.js';
import type { ResolvedAgentExecution, TurnContext } from '../context/resolved-execution.js';
import { createQuietTurnContext, createTurnContext } from '../context/turn-context.js';
import { checkTurnInput } from './check-turn-input.js';
import { iterate } from './iterate.js';
import { isIterationStep, type IterationStep } from './iteration-step.js';
import { startSnapshot } from './turn-snapshot.js';
import { withSteering } from './with-steering.js';

/**
 * Runs one turn as a cold Observable of events: `iterate` from the turn's first snapshot,
 * driven by `expand` (each `next` step's snapshot starts the next iteration) until the model
 * answers without tool calls, the turn is cancelled, or the iteration cap is reached; the
 * `done` step becomes the `done` event. Aborting `input.signal` closes the unfinished slots
 * (`interrupted`), appends the round, emits `done` with reason 'cancelled' and completes;
 * unsubscribing tears everything down — on an agent with observers, after closing the turn as an
 * abort does (`abortOnUnsubscribe`), so they see every slot end. Hard failures error the
 * Observable with a ToolLoopError.
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
  if (resolved.observers.length === 0) return defer(() => (checkTurnInput(input), turnEvents(createTurnContext(resolved, input), input)));
  // observers are told of each call: unsubscribing closes the turn as an abort does (abortOnUnsubscribe)
  return abortOnUnsubscribe(input.signal, (signal) =>
    defer(() => (checkTurnInput(input), turnEvents(createTurnContext(resolved, turnInputWith(input, { signal })), input))),
  );
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
  return defer(() => (checkTurnInput(input), turnEvents(createQuietTurnContext(resolved, input), input)));
}

/** The turn's iterations, driven by `expand` from its first snapshot, with its steering listened to meanwhile. */
function turnEvents(turn: TurnContext, input: TurnInput): Observable<TurnEvent> {
  return withSteering(turn, input.steering, playTurn(turn, iterate(turn, startSnapshot(turn, input))));
}

/**
 * A turn from its first iteration on: each `next` step's snapshot starts the next iteration
 * (`expand`) until a `done` step ends the turn (`endTurn`). The turn listens to its signal once,
 * for its whole life (`using`), so every stage's `takeUntil(cancel$)` shares that one listener.
 *
 * ```
 * first$:  -i-n|              n: next step
 * iterate:     -i-(d|)        (for n)
 * result:  -i---i-(D|)        D: the done event
 * ```
 * @example
 * ```ts
 * playTurn(turn, iterate(turn, startSnapshot(turn, input)));
 * ```
 * @param turn The turn's services.
 * @param first$ Its first iteration (`iterate`, or `resumeIteration`).
 * @return The turn's events.
 */
export function playTurn(turn: TurnContext, first$: Observable<TurnEvent | IterationStep>): Observable<TurnEvent> {
  return using(
    () => turn.cancel$.subscribe(),
    () => first$.pipe(expand((value) => (isIterationStep(value) && value.kind === 'next' ? iterate(turn, value.snapshot) : EMPTY)), endTurn()),
  );
}

/**
 * Ends the turn's stream: events pass through, the `done` step becomes the `done` event, and
 * `next` steps (already expanded into their iteration) are dropped. The `done` event completes
 * the stream (`takeWhile`, inclusive): a consumer that cancels the turn from an event sees
 * nothing after `done`, not even the rest of the event it cancelled from.
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

function ended(source: Observable<TurnEvent | IterationStep>): Observable<TurnEvent> {
  return source.pipe(
    filter((value) => isTurnEvent(value) || value.kind === 'done'),
    map((value) => (isTurnEvent(value) ? value : doneEvent(value as DoneStep))),
    takeWhile((event) => event.type !== 'done', true),
  );
}

/** The `done` step as the turn's `done` event, its text scrubbed. */
function doneEvent(step: DoneStep): TurnEventDone {
  const { snapshot } = step;
  const text = scrubAnswer(step.text);
  const history = snapshot.history as TurnEventDone['history'];
  const done: TurnEventDone = { type: 'done', text, reason: step.reason, history, iterations: snapshot.iteration, usage: snapshot.usage };
  if (step.reason === 'paused') return { ...done, snapshot, pending: step.pending ?? [] };
  return 'object' in step ? { ...done, object: step.object } : done;
}

type DoneStep = Extract<IterationStep, { kind: 'done' }>;
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
