/**
 * A tool loop assembled by hand from the building blocks of `rx-tool-loop/operators`, for apps
 * that want their own graph (an extra step, their own stop rule) instead of `agent.run`.
 *
 *   createTurnContext + startSnapshot → per iteration: buildRequest → callProvider → parseResponse
 *     → prepareCalls → takeUntil(cancel$) → dispatchCalls (completion order) → orderBySlot (slot
 *     order) → collectRound → appendRound → the next snapshot
 *   driven by `expand` until the model answers without tool calls; `endTurn` makes the `done` event.
 *
 * `handMadeLoop` is the same graph as `agent.run` (test/loop/one-loop.property.test.ts checks
 * that both emit the same events and history); `main` runs it on a scripted model.
 *
 * Run it with `npx tsx examples/custom-loop.ts` (no build, no network: a scripted model).
 */
import { pathToFileURL } from 'node:url';
import { concat, defer, EMPTY, expand, from, lastValueFrom, map, type Observable, of, takeUntil, tap, throwError, timer } from 'rxjs';
import { z } from 'zod';
import {
  createAgent,
  defineTool,
  LoopAbortedError,
  LoopDetector,
  type ChatMessage,
  type ResolvedAgentExecution,
  type TurnEvent,
  type TurnInput,
  type TurnSnapshot,
} from '../src/index.js';
import {
  appendRound,
  buildRequest,
  callProvider,
  collectRound,
  continueWith,
  createTurnContext,
  dispatchCalls,
  doneStep,
  endTurn,
  isIterationStep,
  iterationContext,
  maxIterationsStep,
  nextSnapshot,
  nextStep,
  orderBySlot,
  parseResponse,
  prepareCalls,
  startSnapshot,
  type IterationStep,
  type ModelResponse,
  type RoundResults,
} from '../src/operators.js';
import { scriptedModel } from '../src/testing/index.js';

/**
 * A whole turn, assembled by hand: what `runToolLoop` does for a turn without steering or the
 * text protocol's malformed-call retries.
 *
 * @example
 * ```ts
 * handMadeLoop(agent.resolved, { message: 'hi' }).subscribe((e) => console.log(e.type));
 * ```
 */
export function handMadeLoop(resolved: ResolvedAgentExecution, input: TurnInput): Observable<TurnEvent> {
  return defer(() => {
    const turn = createTurnContext(resolved, input);
    const cap = resolved.knobs.maxToolIterations;

    const iteration = (snapshot: TurnSnapshot): Observable<TurnEvent | IterationStep> =>
      defer(() => {
        if (turn.cancelled()) return of(doneStep(snapshot, '', 'cancelled'));
        const it = iterationContext(turn, { ...snapshot, iteration: snapshot.iteration + 1 });
        turn.refreshTools();
        const answer = (response: ModelResponse): Observable<TurnEvent | IterationStep> => {
          const usage = {
            inputTokens: snapshot.usage.inputTokens + response.usage.inputTokens,
            outputTokens: snapshot.usage.outputTokens + response.usage.outputTokens,
          };
          const said: ChatMessage[] = response.text.length > 0 || !response.cancelled ? [{ role: 'assistant', content: response.text }] : [];
          if (response.cancelled) return of(doneStep(nextSnapshot(it, { history: [...snapshot.history, ...said], usage }), response.text, 'cancelled'));
          const parsed = parseResponse(it, response);
          if (parsed.calls.length === 0) return of(doneStep(nextSnapshot(it, { history: [...snapshot.history, ...said], usage }), response.text, 'final'));
          return from(parsed.calls).pipe(
            prepareCalls(it), // hooks, guards, approval, validation — in slot order
            takeUntil(turn.cancel$),
            dispatchCalls(it, parsed.calls), // results in completion order (tool-result events go out here)
            orderBySlot(), // back in slot order for history
            collectRound(),
            continueWith((round: RoundResults) => {
              const history = [...snapshot.history];
              appendRound(history, { text: response.text, calls: parsed.calls, results: round.results, textMode: parsed.fromText });
              const receipts = [...snapshot.receipts, ...round.receipts];
              if (turn.cancelled()) return of(doneStep(nextSnapshot(it, { history, receipts, usage }), '', 'cancelled'));
              const detector = new LoopDetector(resolved.knobs.loopDetection, snapshot.loopWindow);
              const loop = detector.check(round.results);
              if (loop.abort) return throwError(() => new LoopAbortedError(loop.abort!.tool, loop.abort!.text, history));
              const next = nextSnapshot(it, { history, receipts, usage, notes: loop.notes, loopWindow: detector.toWindow() });
              return it.iteration >= cap ? maxIterationsStep(turn, next) : of(nextStep(next));
            }),
          );
        };
        return concat(of<TurnEvent>({ type: 'iteration', iteration: it.iteration, model: it.model }), callProvider(it, buildRequest(it)).pipe(continueWith(answer)));
      });

    return iteration(startSnapshot(turn, input)).pipe(
      expand((value) => (isIterationStep(value) && value.kind === 'next' ? iteration(value.snapshot) : EMPTY)),
      endTurn(),
    );
  });
}

/** How long each city's (fake) weather service takes: the slowest city is asked first. */
const latencyMs: Record<string, number> = { Oslo: 30, Lima: 5, Cairo: 15 };
const celsius: Record<string, number> = { Oslo: 4, Lima: 19, Cairo: 27 };

const forecast = defineTool({
  name: 'forecast',
  description: "Today's temperature in a city, in °C",
  parameters: z.object({ city: z.string() }),
  // An Observable result: unsubscribing (cancellation) would stop the timer.
  execute: ({ city }) => timer(latencyMs[city] ?? 1).pipe(map(() => (city in celsius ? `${celsius[city]} °C` : `no data for ${city}`))),
});

const toFahrenheit = defineTool({
  name: 'to_fahrenheit',
  description: 'Converts °C to °F',
  parameters: z.object({ c: z.number() }),
  execute: ({ c }) => String(Math.round((c * 9) / 5 + 32)),
});

/** The model: asks for three forecasts at once, then converts the warmest, then answers. */
const model = scriptedModel((request, n) => {
  if (n === 0) {
    return {
      toolCalls: ['Oslo', 'Lima', 'Cairo'].map((city) => ({ id: `fc_${city.toLowerCase()}`, name: 'forecast', arguments: { city } })),
    };
  }
  if (n === 1) return { toolCalls: [{ id: 'conv_1', name: 'to_fahrenheit', arguments: { c: 27 } }] };
  const last = request.messages.at(-1);
  return { text: `Cairo is the warmest at 27 °C (${last?.role === 'tool' ? last.content : '?'} °F); Oslo is the coldest at 4 °C.` };
});

/** What the hand-made loop returns. */
export interface CustomLoopResult {
  readonly answer: string;
  readonly iterations: number;
  readonly history: ChatMessage[];
}

/**
 * Runs one turn through the hand-assembled loop, printing each event and each history append.
 *
 * @example
 * ```ts
 * const { answer } = await main();
 * ```
 */
export async function main(print: (line: string) => void = console.log): Promise<CustomLoopResult> {
  // The agent is only used for its resolved bundle: provider, registry, knobs, prep steps, clock, ids.
  const { resolved } = createAgent({ provider: model, model: 'scripted', tools: [forecast, toFahrenheit], knobs: { parallelTools: true } });
  const message = 'Which of Oslo, Lima and Cairo is warmest today, and how warm is that in °F?';
  print(`user: ${message}`);
  const done = await lastValueFrom(
    handMadeLoop(resolved, { message }).pipe(
      tap((event) => print(render(event))),
      map((event) => (event.type === 'done' ? event : undefined)),
    ),
  );
  if (!done) throw new Error('the turn ended without a done event');
  print(`answer: ${done.text}`);
  return { answer: done.text, iterations: done.iterations, history: done.history };
}

function render(event: TurnEvent): string {
  switch (event.type) {
    case 'iteration':
      return `── iteration ${event.iteration}`;
    case 'tool-call':
      return `  ┌ [${event.slot}] ${event.name} ${JSON.stringify(event.args)}`;
    case 'tool-result':
      return `  └ [${event.slot}] ${event.name} ${event.outcome}: ${event.output}`;
    case 'text-delta':
      return `  model: ${event.text}`;
    case 'done':
      return `── done (${event.reason}) after ${event.iterations} iterations; history ← ${event.history.length} messages`;
    default:
      return `  (${event.type})`;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
