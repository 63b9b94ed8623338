import { describe, expect, it } from 'vitest';
import { ApprovalManager, ConfigurationError, createAgent, nonInteractiveApproval, type AgentConfig } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { recordingLogger } from '../prep/harness.js';

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

describe('an agent without an approval policy warns once, at createAgent, naming its exec, write and egress tools', () => {
  const tools = [
    fakeTool('shell', 'ok', { risk: 'exec' }),
    fakeTool('file_write', 'ok', { risk: 'write' }),
    fakeTool('web_fetch', 'ok', { risk: 'egress' }),
    fakeTool('lookup', 'ok', { risk: 'read' }),
    fakeTool('mystery', 'ok'), // no declared risk: counts as 'write'
  ];

  it('one warning on the agent\'s logger, naming each risky tool with its risk, none of the read tools', async () => {
    const logger = recordingLogger();
    const agent = createAgent({ provider: scriptedModel([{ text: 'hi' }, { text: 'hi' }]), model: 'm', tools, logger, name: 'helper' });
    expect(logger.warnings).toHaveLength(1);
    const [{ obj, msg }] = logger.warnings;
    expect(obj).toEqual({ agent: 'helper', tools: ['shell (exec)', 'file_write (write)', 'web_fetch (egress)', 'mystery (write)'] });
    expect(msg).toMatch(/no approval policy/);
    expect(msg).toContain('shell (exec)');
    expect(msg).not.toContain('lookup');
    await agent.complete({ message: 'a' });
    await agent.complete({ message: 'b' });
    expect(logger.warnings).toHaveLength(1); // per agent, not per turn
  });

  it('deferred tools count; excluded ones and those the risk profile removes do not', () => {
    const logger = recordingLogger();
    const deferred = [fakeTool('gh__delete_repo', 'ok', { risk: 'exec' })];
    createAgent({ provider: scriptedModel([]), model: 'm', tools, deferredTools: deferred, excludedTools: [' Shell '], riskProfile: { excluded: ['web_fetch'] }, logger });
    expect(logger.warnings[0].obj).toMatchObject({ tools: ['file_write (write)', 'mystery (write)', 'gh__delete_repo (exec)'] });
  });

  it('no warning with an approval policy, nor when every tool only reads', () => {
    const logger = recordingLogger();
    createAgent({ provider: scriptedModel([]), model: 'm', tools, approval: new ApprovalManager({}, nonInteractiveApproval()), logger });
    createAgent({ provider: scriptedModel([]), model: 'm', tools: [fakeTool('lookup', 'ok', { risk: 'read' })], logger });
    expect(logger.warnings).toEqual([]);
  });
});
