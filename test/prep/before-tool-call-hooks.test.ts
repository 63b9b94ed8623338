import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, type BeforeToolCallHook } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { outcomes, recordingLogger, runTurn, toolContents } from './harness.js';

const oneCall = (name: string, args: Record<string, unknown> = {}) =>
  scriptedModel([{ toolCalls: [{ id: 'c1', name, arguments: args }] }, { text: 'ok' }]);

function agentWith(hooks: BeforeToolCallHook[], name = 'echo', args: Record<string, unknown> = { v: 1 }) {
  // risk 'read': without approval, any other tool is named in a warning at createAgent
  const echo = fakeTool('echo', (a) => `echo ${JSON.stringify(a)}`, { risk: 'read' });
  const other = fakeTool('other', (a) => `other ${JSON.stringify(a)}`, { risk: 'read' });
  const logger = recordingLogger();
  const agent = createAgent({ provider: oneCall(name, args), model: 'm', tools: [echo, other], hooks: { beforeToolCall: hooks }, logger });
  return { agent, echo, other, logger };
}

describe('beforeToolCall hooks run in order: each keeps, rewrites (name and/or args) or cancels the call', () => {
  it('a hook that returns nothing keeps the call as the model sent it', async () => {
    const seen: unknown[] = [];
    const { agent, echo } = agentWith([(call) => void seen.push([call.name, call.args, call.slot, call.iteration, call.ingress.channel])]);
    const { events } = await runTurn(agent);
    expect(seen).toEqual([['echo', { v: 1 }, 0, 1, 'cli']]);
    expect(echo.calls.map((c) => c.args)).toEqual([{ v: 1 }]);
    expect(outcomes(events)).toEqual([['echo', 'executed', true, 'echo {"v":1}']]);
  });

  it('hooks run in order and each sees the call as the previous hook left it', async () => {
    const order: string[] = [];
    const { agent, echo } = agentWith([
      (call) => {
        order.push(`first saw ${JSON.stringify(call.args)}`);
        return { args: { ...call.args, w: 2 } };
      },
      (call) => {
        order.push(`second saw ${JSON.stringify(call.args)}`);
        return undefined;
      },
    ]);
    await runTurn(agent);
    expect(order).toEqual(['first saw {"v":1}', 'second saw {"v":1,"w":2}']);
    expect(echo.calls.map((c) => c.args)).toEqual([{ v: 1, w: 2 }]);
  });

  it('a renamed call runs the new tool: the tool is resolved after the hooks, and its events carry the new name', async () => {
    const { agent, echo, other } = agentWith([() => ({ name: 'other', args: { x: 3 } })]);
    const { events } = await runTurn(agent);
    expect(echo.calls).toEqual([]);
    expect(other.calls.map((c) => c.args)).toEqual([{ x: 3 }]);
    expect(outcomes(events)).toEqual([['other', 'executed', true, 'other {"x":3}']]);
  });

  it('a call renamed to a name the turn does not have ends unknown and never runs', async () => {
    const { agent, echo } = agentWith([() => ({ name: 'missing' })]);
    const { events } = await runTurn(agent);
    expect(echo.calls).toEqual([]);
    expect(outcomes(events)).toEqual([['missing', 'unknown', false, 'Unknown tool: missing']]);
  });

  it('a hook can rewrite a call the model sent to an unknown tool into a known one', async () => {
    const { agent, echo } = agentWith([(call) => (call.name === 'ehco' ? { name: 'echo' } : undefined)], 'ehco');
    const { events } = await runTurn(agent);
    expect(echo.calls).toHaveLength(1);
    expect(outcomes(events)[0][1]).toBe('executed');
  });

  it('{ cancel: reason } ends the slot hook-cancelled with "Cancelled by hook: {reason}"; later hooks and the tool never run', async () => {
    let laterRan = false;
    const { agent, echo } = agentWith([() => ({ cancel: 'writes are frozen' }), () => void (laterRan = true)]);
    const { events, done } = await runTurn(agent);
    expect(echo.calls).toEqual([]);
    expect(laterRan).toBe(false);
    expect(outcomes(events)).toEqual([['echo', 'hook-cancelled', false, 'Cancelled by hook: writes are frozen']]);
    expect(toolContents(done!.history)).toEqual(['Cancelled by hook: writes are frozen']);
  });

  it('a hook may answer later (Promise or Observable) and the call waits for it', async () => {
    const { agent, echo } = agentWith([async (call) => ({ args: { ...call.args, late: true } }), () => of({ name: 'echo' })]);
    await runTurn(agent);
    expect(echo.calls.map((c) => c.args)).toEqual([{ v: 1, late: true }]);
  });

  it('an async cancel works like a synchronous one', async () => {
    const { agent, echo } = agentWith([() => Promise.resolve({ cancel: 'later' })]);
    const { events } = await runTurn(agent);
    expect(echo.calls).toEqual([]);
    expect(outcomes(events)).toEqual([['echo', 'hook-cancelled', false, 'Cancelled by hook: later']]);
  });
});

describe('a beforeToolCall hook that throws is logged and ignored', () => {
  it('a throwing hook is logged; the call goes on as it was, and the next hook still runs', async () => {
    let nextRan = false;
    const { agent, echo, logger } = agentWith([
      () => {
        throw new Error('hook bug');
      },
      () => void (nextRan = true),
    ]);
    const { events } = await runTurn(agent);
    expect(nextRan).toBe(true);
    expect(echo.calls.map((c) => c.args)).toEqual([{ v: 1 }]);
    expect(outcomes(events)[0][1]).toBe('executed');
    expect(logger.warnings).toHaveLength(1);
    expect((logger.warnings[0].obj as { err: Error }).err.message).toBe('hook bug');
    expect(logger.warnings[0].msg).toMatch(/hook/);
  });

  it('a rejected Promise is logged and ignored', async () => {
    const { agent, echo, logger } = agentWith([() => Promise.reject(new Error('async hook bug'))]);
    await runTurn(agent);
    expect(echo.calls).toHaveLength(1);
    expect((logger.warnings[0].obj as { err: Error }).err.message).toBe('async hook bug');
  });

  it('a decision of the wrong shape is logged and ignored', async () => {
    const { agent, echo, logger } = agentWith([() => ({ name: 42 }) as never, () => ({ args: ['not', 'an', 'object'] }) as never]);
    await runTurn(agent);
    expect(echo.calls.map((c) => c.args)).toEqual([{ v: 1 }]);
    expect(logger.warnings).toHaveLength(2);
  });
});
