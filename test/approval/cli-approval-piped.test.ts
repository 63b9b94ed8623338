import { PassThrough } from 'node:stream';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, cliApproval, createAgent, type TurnEvent } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';

/** One turn whose model asks for `envs.length` deploy calls in one batch, every one prompted on `input`. */
function deployAgent(input: NodeJS.ReadableStream, envs: string[]) {
  const deploy = fakeTool('deploy', (args) => `deployed ${String(args.env)}`);
  let written = '';
  const agent = createAgent({
    provider: scriptedModel([{ toolCalls: envs.map((env) => ({ name: 'deploy', arguments: { env } })) }, { text: 'finished' }]),
    model: 'scripted',
    tools: [deploy],
    approval: new ApprovalManager({ level: 'supervised' }, cliApproval({ input, output: { write: (t: string) => (written += t) } })),
  });
  return { agent, deploy, written: () => written };
}

const outcomes = (events: TurnEvent[]) =>
  events.flatMap((e) => (e.type === 'tool-result' ? [`${e.slot} ${e.outcome}`] : e.type === 'done' ? [`done ${e.text}`] : []));

describe('CLI front door on a passed-in stream: one question after another in a batch, none stalls', () => {
  it('two prompted calls in one batch, answers "y\\nn\\n" written before the turn starts', async () => {
    const input = new PassThrough();
    input.write('y\nn\n');
    const { agent, deploy } = deployAgent(input, ['one', 'two']);
    const events = await lastValueFrom(agent.run({ message: 'deploy' }).pipe(toArray()));
    expect(outcomes(events)).toEqual(['0 executed', '1 denied', 'done finished']);
    expect(deploy.calls.length).toBe(1);
  });

  it('two prompted calls in one batch, answers "y\\nn\\n" written after the first prompt', async () => {
    const input = new PassThrough();
    const { agent, written } = deployAgent(input, ['one', 'two']);
    const done = lastValueFrom(agent.run({ message: 'deploy' }).pipe(toArray()));
    await new Promise<void>((resolve) => {
      const poll = (): void => (written().includes('[a]lways: ') ? resolve() : void setImmediate(poll));
      poll();
    });
    input.write('y\nn\n');
    expect(outcomes(await done)).toEqual(['0 executed', '1 denied', 'done finished']);
  });

  it('three prompted calls, answers one chunk each, then end of input', async () => {
    const input = new PassThrough();
    input.write('n\n');
    input.write('y\n');
    input.end('a\n');
    const { agent } = deployAgent(input, ['one', 'two', 'three']);
    const events = await lastValueFrom(agent.run({ message: 'deploy' }).pipe(toArray()));
    expect(outcomes(events)).toEqual(['0 denied', '1 executed', '2 executed', 'done finished']);
  });
});
