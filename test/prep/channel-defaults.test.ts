import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { runTurn } from './harness.js';

async function notifyWith(args: Record<string, unknown>, channel: string | undefined, channelArg: string | null = 'channel') {
  const notify = fakeTool('notify', 'sent', channelArg === null ? {} : { channelArg });
  const model = scriptedModel([{ toolCalls: [{ name: 'notify', arguments: args }] }, { text: 'ok' }]);
  const agent = createAgent({ provider: model, model: 'm', tools: [notify] });
  await runTurn(agent, { message: 'go', ...(channel !== undefined ? { ingress: { channel } } : {}) });
  return notify.calls[0].args;
}

describe("channel defaults: a tool with channelArg gets the turn's ingress.channel when that argument is missing or blank", () => {
  it('a missing argument gets the channel', async () => {
    expect(await notifyWith({ text: 'hi' }, 'slack')).toEqual({ text: 'hi', channel: 'slack' });
  });

  it('a blank argument (empty, whitespace or null) gets the channel', async () => {
    expect(await notifyWith({ text: 'hi', channel: '' }, 'slack')).toEqual({ text: 'hi', channel: 'slack' });
    expect(await notifyWith({ text: 'hi', channel: '   ' }, 'slack')).toEqual({ text: 'hi', channel: 'slack' });
    expect(await notifyWith({ text: 'hi', channel: null }, 'slack')).toEqual({ text: 'hi', channel: 'slack' });
  });

  it('a value the model gave is kept', async () => {
    expect(await notifyWith({ text: 'hi', channel: 'email' }, 'slack')).toEqual({ text: 'hi', channel: 'email' });
  });

  it('the default ingress channel (cli) is a channel like any other', async () => {
    expect(await notifyWith({ text: 'hi' }, undefined)).toEqual({ text: 'hi', channel: 'cli' });
  });

  it('the argument name comes from channelArg', async () => {
    expect(await notifyWith({ text: 'hi' }, 'slack', 'target')).toEqual({ text: 'hi', target: 'slack' });
  });

  it('a tool without channelArg is left alone', async () => {
    expect(await notifyWith({ text: 'hi' }, 'slack', null)).toEqual({ text: 'hi' });
  });
});

describe('channel defaults are skipped when the channel is empty, agent or daemon', () => {
  it.each(['', 'agent', 'daemon', 'Daemon '])('channel %j adds nothing', async (channel) => {
    expect(await notifyWith({ text: 'hi' }, channel)).toEqual({ text: 'hi' });
  });
});
