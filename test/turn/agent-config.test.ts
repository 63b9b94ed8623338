import { describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, type AgentConfig } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

describe('createAgent refuses a configuration it cannot run with a ConfigurationError that says what is missing', () => {
  const provider = scriptedModel([{ text: 'hi' }]);
  it.each([
    ['no provider', { model: 'm', tools: [] }, /needs a provider/],
    ['no model', { provider, tools: [] }, /needs a model name/],
    ['no tools (a JavaScript caller)', { provider, model: 'm' }, /needs tools: an array of tools \(\[\] for none\)/],
    ['tools that are not an array', { provider, model: 'm', tools: 'echo' }, /needs tools/],
  ])('%s', (_name, config, message) => {
    const make = () => createAgent(config as unknown as AgentConfig);
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(message);
  });
});
