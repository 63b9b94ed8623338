import { concat, defer, from, ignoreElements, NEVER, type Observable, of, takeUntil } from 'rxjs';
import type { RequestSystem } from '../core/loop-control.js';
import type { ChatMessage } from '../core/messages.js';
import { NO_ITEMS } from '../core/no-items.js';
import type { TurnEvent } from '../core/events.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import type { PreparedCall } from '../core/calls.js';
import { collectBatch } from '../execute/collect-batch.js';
import { dispatchBatch } from '../execute/dispatch-calls.js';
import { BatchRun } from '../execute/batch-run.js';
import type { ResumedDelegation } from '../execute/parent-call.js';
import { orderBySlot } from '../execute/order-by-slot.js';
import { prepareCalls } from '../prep/prepare-calls.js';
import { buildRequest } from '../request/build-request.js';
import { callProvider, type ModelResponse } from '../request/call-provider.js';
import { parseResponse } from '../request/parse-response.js';
import { continueWith } from '../core/continue-with.js';
import { iterationContext } from '../context/iteration-context.js';
import { createPrepContext } from '../prep/prep-context.js';
import type { IterationContext, PrepContext, TurnContext } from '../context/resolved-execution.js';
import { parkStep } from './park-step.js';
import { interruptParked, parkDelegated } from './park-delegated.js';
import { preparedSnapshot } from './prepared-snapshot.js';
import type { Round } from './round.js';
import { afterRound } from './after-round.js';
import { answered, assistantMessage } from './answered.js';
import { collectRound, type RoundResults } from './collect-round.js';
import { doneStep, isIterationStep, type IterationStep } from './iteration-step.js';
import { planIteration } from './plan-iteration.js';
import { sumUsage } from './sum-usage.js';
import { nextSnapshot, snapshotWith } from './turn-snapshot.js';

export { malformedApologyText, malformedRetryText } from './answered.js';

/**
 * One iteration, from a snapshot to the next: steering messages join history, the turn's
 * `prepareIteration` plans the request (`planIteration`), the request is sent, and its calls (if
 * any) are prepared, dispatched and appended to history in slot order; then `stopWhen` (`stopStep`)
 * may end the turn.
 * Emits the iteration's events (on a quiet turn, `TurnContext.quiet`, only those that carry
 * approvals or receipts), then exactly one step (`next` with the new snapshot, or `done`).
 *
 * ```
 * provider: ---r|
 * batch:        ----(R|)
 * result:   i------(n|)      i: iteration event; n: 'next', or 'done' when the model answered
 * ```
 * @example
 * ```ts
 * iterate(turn, snapshot).pipe(expand((v) => (isIterationStep(v) && v.kind === 'next' ? iterate(turn, v.snapshot) : EMPTY)));
 * ```
 * @param turn The turn's services (`createTurnContext`).
 * @param snapshot Where the turn stands (`startSnapshot`, or a previous step's).
 * @return The iteration's events, then its step.
 */
export function iterate(turn: TurnContext, snapshot: TurnSnapshot): Observable<TurnEvent | IterationStep> {
  return defer(() => {
    if (turn.cancelled()) return of(doneStep(snapshot, '', 'cancelled'));
    const steering = turn.hasSteering() ? [...snapshot.steering, ...turn.takeSteering()] : snapshot.steering;
    const history = steering.length > 0 ? [...snapshot.history, ...steering.map(userMessage)] : snapshot.history;
    const it = iterationContext(turn, snapshotWith(snapshot, { history, steering: NO_ITEMS, iteration: snapshot.iteration + 1 }));
    turn.refreshTools();
    if (!turn.loopControl?.prepareIteration.length) return request(it, undefined);
    // the plan first: the iteration event names the model it chose
    return planIteration(it).pipe(continueWith((planned: RequestSystem | IterationStep) => (isIterationStep(planned) ? of(planned) : request(it, planned))));
  });
}

/** The iteration's request (`prompt`: its system prompt after `planIteration`), then its calls through the graph. */
function request(it: IterationContext, prompt: RequestSystem | undefined): Observable<TurnEvent | IterationStep> {
  const response$ = callProvider(it, buildRequest(it, true, prompt)).pipe(continueWith(afterResponseOf(it)));
  if (it.turn.quiet === true) return response$; // nobody reads the turn's events (TurnContext.quiet)
  return concat(of<TurnEvent>({ type: 'iteration', iteration: it.iteration, model: it.model }), response$);
}

/** `afterResponse` for `it`, as a closure that holds `it` alone (not the snapshot the iteration started from). */
const afterResponseOf =
  (it: IterationContext) =>
  (response: ModelResponse): Observable<TurnEvent | IterationStep> =>
    afterResponse(it, response);

/** The response's calls through the graph — prepare, dispatch, order by slot, collect — then the next step. */
function afterResponse(it: IterationContext, response: ModelResponse): Observable<TurnEvent | IterationStep> {
  const usage = sumUsage(it.snapshot.usage, response.usage);
  if (response.cancelled) {
    // what streamed before the cancel is kept, so the next turn sees it
    const history = response.text.length > 0 ? [...it.snapshot.history, assistantMessage(response.text, response.reasoning)] : it.snapshot.history;
    return of(doneStep(nextSnapshot(it, { history, usage }), response.text, 'cancelled'));
  }
  const parsed = parseResponse(it, response);
  if (parsed.calls.length === 0) return answered(it, response, parsed, usage);
  const ctx = createPrepContext(it);
  const round: Round = { text: response.text, fromText: parsed.fromText, calls: parsed.calls, ...(response.reasoning ? { reasoning: response.reasoning } : {}) };
  // in slot order, one call at a time; events (approvals) on the way
  return playRound(it, round, from(parsed.calls).pipe(prepareCalls(it, it.resolved.prepSteps, ctx)), ctx, usage);
}

/**
 * A round's prepared calls to its next step, in the graph's order: prepare and approve
 * (`prepared$`, from `prepareCalls`) → `takeUntil(cancel$)` (a pending prompt is withdrawn;
 * unprepared slots close `interrupted`) → `collectBatch`; a batch parked at an approval ends the
 * turn 'paused'; otherwise → dispatch (`dispatchBatch`: `mergeMap(executeOne, cap)` or
 * `concatMap(executeOne)`, cut by `takeUntil(cancel$)`) → `orderBySlot` → `collectRound` → the
 * round joins history. Events pass as they come. `resumed`: in a resumed batch, the parked
 * sub-agents' turns its delegated calls resume, by slot.
 *
 * ```
 * prepared$: (ab|)
 * tools:     ---b-a|            b answers first
 * result:    ---t-t(n|)         t: tool-result events; n: the next step, a before b in history
 * ```
 * @example
 * ```ts
 * playRound(it, round, from(round.calls).pipe(prepareCalls(it, steps, ctx)), ctx, usage);
 * ```
 */
export function playRound(
  it: IterationContext,
  round: Round,
  prepared$: Observable<TurnEvent | PreparedCall>,
  ctx: PrepContext,
  usage: TurnSnapshot['usage'],
  resumed?: ReadonlyMap<number, ResumedDelegation>,
): Observable<TurnEvent | IterationStep> {
  const { cancel$ } = it.turn;
  // a turn without a signal (`cancel$` is `NEVER`) has nothing to cut on
  return (cancel$ === NEVER ? prepared$ : prepared$.pipe(takeUntil(cancel$))).pipe(
    collectBatch(round.calls),
    continueWith((batch: PreparedCall[]) => playBatch(it, round, batch, ctx, usage, resumed)),
  );
}

/**
 * `playRound` for the collected batch (indexed by slot): parked at an approval, the turn ends
 * 'paused'; otherwise the batch is dispatched, its results collected in slot order, and the
 * round joins history — unless a call parked with its sub-agent (`parkDelegated`).
 */
function playBatch(
  it: IterationContext,
  round: Round,
  batch: PreparedCall[],
  ctx: PrepContext,
  usage: TurnSnapshot['usage'],
  resumed: ReadonlyMap<number, ResumedDelegation> | undefined,
): Observable<TurnEvent | IterationStep> {
  if (batch.some(isPaused)) return of(parkStep(it, round, batch, ctx, usage));
  const run = new BatchRun(it.resolved.logger, true, resumed);
  const next = (results: RoundResults): Observable<TurnEvent | IterationStep> => {
    const { parked } = run;
    if (parked === undefined) return afterRound(it, round, results, usage);
    if (it.turn.cancelled()) return interruptParked(it, results).pipe(continueWith((closed: RoundResults) => afterRound(it, round, closed, usage)));
    return of(parkDelegated(it, round, batch, ctx, usage, results, parked));
  };
  return afterJournal(
    it,
    round,
    batch,
    ctx,
    usage,
    dispatchBatch(it, batch, run).pipe(
      orderBySlot(), // completion order → slot order, for history
      collectRound(),
      continueWith(next),
    ),
  );
}

const isPaused = (call: PreparedCall): boolean => call.paused !== undefined;

/** `next$`, after the turn's journal (if any) recorded the prepared round (no closure for it without a journal). */
function afterJournal<T>(
  it: IterationContext,
  round: Round,
  batch: PreparedCall[],
  ctx: PrepContext,
  usage: TurnSnapshot['usage'],
  next$: Observable<T>,
): Observable<T> {
  const { journal } = it.turn;
  if (!journal) return next$;
  return concat(defer(() => from(journal.prepared(preparedSnapshot(it, round, batch, ctx, usage)))).pipe(ignoreElements()), next$);
}

const userMessage = (content: string): ChatMessage => ({ role: 'user', content });
