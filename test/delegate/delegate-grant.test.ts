import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, delegateTool, type ProviderRequest, type TurnEvent } from '../../src/index.js';
import { fakeTool, scriptedModel, type ScriptedStep } from '../../src/testing/index.js';

const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });
const specNames = (req: ProviderRequest) => (req.tools ?? []).map((t) => t.name);
const childResults = (all: TurnEvent[]) =>
  all.flatMap((e) => (e.type === 'delegate' && e.event.type === 'tool-result' ? [[e.event.name, e.event.outcome]] : []));

/**
 * A parent with deferred tools alpha, beta and gamma, which activates alpha and beta, then
 * delegates to a child (with a tool of its own) that calls `childCalls`.
 */
function setup(options: { grant?: readonly string[]; childCalls: string[]; childExcludes?: string[] }) {
  const alpha = fakeTool('alpha', 'a', { risk: 'read' });
  const beta = fakeTool('beta', 'b', { risk: 'read' });
  const gamma = fakeTool('gamma', 'g', { risk: 'read' });
  const calc = fakeTool('calc', '42', { risk: 'read' });
  const own = fakeTool('own', 'mine', { risk: 'read' });
  const childModel = scriptedModel([{ toolCalls: options.childCalls.map((name, i) => call(`c${i}`, name)) }, { text: 'child done' }]);
  const child = createAgent({ name: 'child', provider: childModel, model: 'm', tools: [own], excludedTools: options.childExcludes });
  const delegate = delegateTool({ agent: child, name: 'delegate', description: 'Hands a task over.', grant: options.grant });
  const steps: ScriptedStep[] = [
    { toolCalls: [call('s', 'tool_search', { query: 'select:alpha,beta' })] },
    { toolCalls: [call('d', 'delegate', { task: 'use your tools' })] },
    { text: 'parent done' },
  ];
  const parent = createAgent({ provider: scriptedModel(steps), model: 'm', tools: [delegate, calc], deferredTools: [alpha, beta, gamma] });
  const run = () => lastValueFrom(parent.run({ message: 'go', conversationId: 'c1' }).pipe(toArray()));
  return { alpha, beta, gamma, calc, own, childModel, run };
}

describe('a delegated turn threads the activated set it was granted', () => {
  it("by default the child sees its own tools and the parent's activated ones, and runs them", async () => {
    const { childModel, alpha, beta, run } = setup({ childCalls: ['own', 'alpha', 'beta'] });
    const all = await run();
    expect(specNames(childModel.requests[0])).toEqual(['own', 'alpha', 'beta']);
    expect(childResults(all)).toEqual([
      ['own', 'executed'],
      ['alpha', 'executed'],
      ['beta', 'executed'],
    ]);
    expect([alpha.calls.length, beta.calls.length]).toEqual([1, 1]);
  });

  it('a tool not granted is neither advertised to the child nor runnable by it', async () => {
    const { childModel, beta, run } = setup({ grant: ['alpha'], childCalls: ['alpha', 'beta'] });
    const all = await run();
    expect(specNames(childModel.requests[0])).toEqual(['own', 'alpha']);
    expect(childResults(all)).toEqual([
      ['alpha', 'executed'],
      ['beta', 'unknown'],
    ]);
    expect(beta.calls).toHaveLength(0);
  });

  it("a tool the parent cannot resolve is never granted: deferred and not activated, or tool_search, or the delegate", async () => {
    const { childModel, gamma, run } = setup({ grant: ['*'], childCalls: ['gamma', 'tool_search', 'delegate'] });
    const all = await run();
    expect(specNames(childModel.requests[0])).toEqual(['own', 'calc', 'alpha', 'beta']);
    expect(childResults(all)).toEqual([
      ['gamma', 'unknown'],
      ['tool_search', 'unknown'],
      ['delegate', 'unknown'],
    ]);
    expect(gamma.calls).toHaveLength(0);
  });

  it("a granted tool the child's executor excludes is not advertised, and its call ends excluded", async () => {
    const { childModel, alpha, run } = setup({ childCalls: ['alpha', 'beta'], childExcludes: ['alpha'] });
    const all = await run();
    expect(specNames(childModel.requests[0])).toEqual(['own', 'beta']);
    expect(childResults(all)).toEqual([
      ['alpha', 'excluded'],
      ['beta', 'executed'],
    ]);
    expect(alpha.calls).toHaveLength(0);
  });

  it('grant: [] lends nothing; the grant lasts for the call only', async () => {
    const { childModel, run } = setup({ grant: [], childCalls: ['alpha'] });
    const all = await run();
    expect(specNames(childModel.requests[0])).toEqual(['own']);
    expect(childResults(all)).toEqual([['alpha', 'unknown']]);
  });

  it('every tool the child is offered, it can run (and only those)', async () => {
    const offered: string[][] = [];
    // a child that calls exactly what it was offered
    const alpha = fakeTool('alpha', 'a', { risk: 'read' });
    const own = fakeTool('own', 'mine', { risk: 'read' });
    const childModel = scriptedModel((req, n) => {
      offered.push(specNames(req));
      return n === 0 ? { toolCalls: specNames(req).map((name, i) => call(`c${i}`, name)) } : { text: 'ok' };
    });
    const child = createAgent({ name: 'child', provider: childModel, model: 'm', tools: [own] });
    const parent = createAgent({
      provider: scriptedModel([{ toolCalls: [call('s', 'tool_search', { query: 'select:alpha' })] }, { toolCalls: [call('d', 'delegate', { task: 'x' })] }, { text: 'ok' }]),
      model: 'm',
      tools: [delegateTool({ agent: child, name: 'delegate', description: 'd', grant: ['*'] })],
      deferredTools: [alpha],
    });
    const all = await lastValueFrom(parent.run({ message: 'go' }).pipe(toArray()));
    expect(offered[0]).toEqual(['own', 'alpha']);
    expect(childResults(all).map(([, outcome]) => outcome)).toEqual(['executed', 'executed']);
  });
});
