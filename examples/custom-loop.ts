/**
 * A tool loop assembled by hand from the building blocks of `rx-tool-loop/operators`, for apps
 * that want their own graph (an extra step, their own stop rule) instead of `agent.run`.
 *
 *   createTurnState → per iteration: buildRequest → callProvider → parseResponse
 *     → prepareCalls → dispatchCalls (completion order) → orderBySlot (slot order) → appendRound
 *   driven by `expand` until the model answers without tool calls.
 *
 * Run it with `npx tsx examples/custom-loop.ts` (no build, no network: a scripted model).
 */
import { pathToFileURL } from 'node:url';
import { defer, EMPTY, expand, from, last, lastValueFrom, map, mergeMap, type Observable, of, timer, toArray } from 'rxjs';
import { z } from 'zod';
import { createAgent, defineTool, type ChatMessage, type SlotResult, type TurnEvent } from '../src/index.js';
import {
  appendRound,
  buildRequest,
  callProvider,
  createTurnState,
  dispatchCalls,
  orderBySlot,
  parseResponse,
  prepareCalls,
} from '../src/operators.js';
import { scriptedModel } from '../src/testing/index.js';

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
  const turn = createTurnState(resolved, { message }, (event) => print(render(event)));
  const maxIterations = 5;

  /** One iteration; emits the final answer, or null when the model asked for tools. */
  const iteration = (): Observable<string | null> =>
    defer(() => {
      turn.iteration += 1;
      turn.emit({ type: 'iteration', iteration: turn.iteration });
      return callProvider(resolved, turn, buildRequest(resolved, turn));
    }).pipe(
      mergeMap((response) => {
        const { calls, fromText } = parseResponse(resolved, turn, response);
        if (calls.length === 0) {
          turn.history.push({ role: 'assistant', content: response.text });
          return of(response.text);
        }
        return from(calls).pipe(
          prepareCalls(resolved, turn, resolved.prepSteps), // hooks, guards, approval, validation
          dispatchCalls(resolved, turn), // results in completion order (tool-result events go out here)
          orderBySlot<SlotResult>(), // back in slot order for history
          toArray(),
          map((results) => {
            appendRound(turn.history, { text: response.text, calls, results, textMode: fromText });
            print(`  history ← ${results.map((r) => `[${r.slot}] ${r.output}`).join(', ')}`);
            return null;
          }),
        );
      }),
    );

  const answer = await lastValueFrom(
    iteration().pipe(
      expand((answer) => (answer === null && turn.iteration < maxIterations ? iteration() : EMPTY)),
      last(),
    ),
  );
  const text = answer ?? `(stopped after ${maxIterations} iterations)`;
  print(`answer: ${text}`);
  return { answer: text, iterations: turn.iteration, history: turn.history };
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
