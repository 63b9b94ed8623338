import { defer, from, isObservable, Observable, type ObservableInput } from 'rxjs';
import { ProviderError } from '../core/errors.js';
import type { ModelProvider, ProviderEvent, ProviderRequest } from '../provider/provider.js';

/** One scripted response: text and/or tool calls (arguments as an object or raw JSON text). */
export interface ScriptedStep {
  readonly text?: string;
  readonly toolCalls?: readonly { readonly id?: string; readonly name: string; readonly arguments: unknown }[];
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
}

/** A step, or a raw event stream (e.g. a `cold()` observable, to place events in virtual time). */
export type ScriptedResponse = ScriptedStep | ObservableInput<ProviderEvent>;

export interface ScriptedModel extends ModelProvider {
  /** Every request the model received, in order. */
  readonly requests: ProviderRequest[];
}

/**
 * A model that answers from a script: a list of steps or a function of the request and its step
 * index. Runs without network; each request's events are emitted synchronously unless the step is
 * itself an observable. Running out of steps is a ProviderError.
 *
 * Each conversation has its own place in the script. A conversation is known by its first user
 * message (the object itself, as the loop passes it on), and its step index is the number of
 * assistant messages the request holds beyond those it started with. So turns that run at the
 * same time each start at step 0; a turn that continues a conversation (`history: done.history`)
 * picks up where the last one stopped; a history you seed starts at step 0; and a turn without
 * history is a new conversation, at step 0 again (pass the history on to continue the script).
 *
 * @example
 * ```ts
 * const model = scriptedModel([
 *   { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
 *   { text: 'The sum is 5.' },
 * ]);
 * const agent = createAgent({ provider: model, model: 'scripted', tools: [add] });
 * // Two turns at once: each runs both steps on its own.
 * await Promise.all([agent.complete({ message: 'a' }), agent.complete({ message: 'b' })]);
 * ```
 */
export function scriptedModel(
  steps: readonly ScriptedResponse[] | ((request: ProviderRequest, n: number) => ScriptedResponse),
  options: { name?: string; nativeTools?: boolean } = {},
): ScriptedModel {
  const requests: ProviderRequest[] = [];
  const position = scriptPositions();
  return {
    name: options.name ?? 'scripted',
    nativeTools: options.nativeTools ?? true,
    ignoresSignal: true, // unsubscribing stops a script: no AbortController per request
    requests,
    request: (req) =>
      defer(() => {
        const n = position(req);
        requests.push(req);
        const step = typeof steps === 'function' ? steps(req, n) : steps[n];
        if (step === undefined) {
          return new Observable<ProviderEvent>((s) => s.error(new ProviderError(`The scripted model has no step ${n + 1}.`)));
        }
        return isStep(step) ? stepEvents(step) : from(step);
      }),
  };
}

/**
 * The script position of each request, per conversation (see `scriptedModel`): the assistant
 * messages a request holds, less those its conversation held when this function first saw it.
 * Conversations are kept in a WeakMap keyed by their first user message, so none is retained.
 *
 * @example
 * ```ts
 * const position = scriptPositions();
 * position({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }); // 0
 * ```
 */
export function scriptPositions(): (request: ProviderRequest) => number {
  const startedWith = new WeakMap<object, number>();
  return (request) => {
    let assistants = 0;
    let first: object | undefined;
    for (const message of request.messages) {
      if (message.role === 'assistant') assistants += 1;
      else if (message.role === 'user') first ??= message;
    }
    if (first === undefined) return assistants;
    let base = startedWith.get(first);
    if (base === undefined) startedWith.set(first, (base = assistants));
    return assistants - base;
  };
}

function isStep(step: ScriptedResponse): step is ScriptedStep {
  return (
    !isObservable(step) &&
    !Array.isArray(step) &&
    typeof (step as PromiseLike<unknown>).then !== 'function' &&
    typeof (step as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function'
  );
}

/**
 * The provider events of a scripted step, built once (frozen) and emitted again to every
 * subscriber: a step replayed many times (a benchmark, a property test) costs no objects.
 *
 * @example
 * ```ts
 * const provider = { name: 'fixed', nativeTools: true, request: () => stepEvents({ text: 'hi' }) };
 * ```
 */
export function stepEvents(step: ScriptedStep): Observable<ProviderEvent> {
  const events: ProviderEvent[] = [];
  if (step.text) events.push({ type: 'text-delta', text: step.text });
  for (const call of step.toolCalls ?? []) {
    const args = typeof call.arguments === 'string' ? call.arguments : ((call.arguments ?? {}) as Record<string, unknown>);
    events.push({ type: 'tool-call', id: call.id, name: call.name, arguments: args });
  }
  if (step.usage) events.push({ type: 'usage', ...step.usage });
  events.push({ type: 'finish', reason: step.toolCalls?.length ? 'tool_calls' : 'stop' });
  for (const event of events) Object.freeze(event);
  return new Observable<ProviderEvent>((subscriber) => {
    for (const event of events) {
      if (subscriber.closed) return;
      subscriber.next(event);
    }
    subscriber.complete();
  });
}
