import { argsSchema, cancelledTurnCalls, FINAL_TEXT, noop, scriptedCalls, type PreparedSystem, type ScriptedCall, type System } from '../workload.js';

type Message =
  | { role: 'user' | 'assistant'; content: string | null; tool_calls?: readonly ScriptedCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * The hand-written floor: what any loop must do at least. Decode and validate each call's
 * arguments with zod, run every tool at once (Promise.all keeps slot order), push the assistant
 * turn and one result per call to history, then ask the model again. No events, no guards.
 */
export const floor: System = {
  name: 'floor',
  note: 'Promise.all, JSON.parse + zod parse per call, ordered results, history push',
  prepare(n): PreparedSystem {
    const calls = scriptedCalls(n);
    const model = (history: readonly Message[]) => (history[history.length - 1].role === 'tool' ? FINAL_TEXT : calls);
    return {
      async turn() {
        const history: Message[] = [{ role: 'user', content: 'go' }];
        for (;;) {
          const answer = model(history);
          if (typeof answer === 'string') {
            history.push({ role: 'assistant', content: answer });
            if (answer !== FINAL_TEXT) throw new Error('floor: unexpected answer');
            return;
          }
          history.push({ role: 'assistant', content: null, tool_calls: answer });
          const results = await Promise.all(answer.map((call) => runCall(call)));
          for (let k = 0; k < results.length; k++) history.push({ role: 'tool', tool_call_id: answer[k].id, content: results[k] });
        }
      },
    };
  },
  async cancelledTurn() {
    const controller = new AbortController();
    const calls = cancelledTurnCalls();
    const history: Message[] = [{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: calls }];
    const signal = controller.signal;
    const results = await Promise.all(
      calls.map(async (call) => {
        const args = argsSchema.parse(JSON.parse(call.arguments));
        if (call.name === 'noop') return noop(args);
        if (args.i === 1) setImmediate(() => controller.abort());
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        return '[interrupted]';
      }),
    );
    for (let k = 0; k < results.length; k++) history.push({ role: 'tool', tool_call_id: calls[k].id, content: results[k] });
  },
};

export async function runCall(call: ScriptedCall): Promise<string> {
  const parsed = argsSchema.safeParse(JSON.parse(call.arguments));
  if (!parsed.success) return `Error: ${parsed.error.message}`;
  try {
    return await noop(parsed.data);
  } catch (err) {
    return `Error: ${String(err)}`;
  }
}
