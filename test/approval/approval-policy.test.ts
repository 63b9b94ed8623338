import { describe, expect, it } from 'vitest';
import { ApprovalManager, ConfigurationError, DEFAULT_AUTO_APPROVE, nonInteractiveApproval } from '../../src/index.js';
import { lastValueFrom } from 'rxjs';
import { scriptedDoor } from '../prep/harness.js';

const manager = (policy: ConstructorParameters<typeof ApprovalManager>[0] = {}) => new ApprovalManager(policy, nonInteractiveApproval());

describe('policy level: full → approved without asking; readonly → no prompt and the marker stays false; supervised is the default', () => {
  it('full approves every tool, even one listed in alwaysAsk', () => {
    const m = manager({ level: 'full', alwaysAsk: ['shell'] });
    expect(['shell', 'file_write', 'anything'].map((t) => m.verdict(t))).toEqual(['approve', 'approve', 'approve']);
    expect(m.needsPrompt('shell')).toBe(false);
  });

  it('readonly prompts for nothing and approves nothing (allow: runs, marker stays false)', () => {
    const m = manager({ level: 'readonly', alwaysAsk: ['*'] });
    expect(['shell', 'file_read'].map((t) => m.verdict(t))).toEqual(['allow', 'allow']);
    expect(m.needsPrompt('shell')).toBe(false);
  });

  it('supervised is the default level', () => {
    expect(new ApprovalManager().level).toBe('supervised');
    expect(manager().verdict('shell')).toBe('prompt');
  });

  it('an unknown level is a ConfigurationError', () => {
    expect(() => manager({ level: 'yolo' as never })).toThrow(ConfigurationError);
  });
});

describe('supervised: alwaysAsk (name or *) prompts, then autoApprove (name or *) approves, then the session allow-list approves, else prompt', () => {
  it('alwaysAsk by name prompts even for an auto-approved tool', () => {
    const m = manager({ autoApprove: ['shell'], alwaysAsk: ['shell'] });
    expect(m.verdict('shell')).toBe('prompt');
  });

  it('alwaysAsk * prompts for every tool', () => {
    const m = manager({ autoApprove: ['*'], alwaysAsk: ['*'] });
    expect(['file_read', 'x'].map((t) => m.verdict(t))).toEqual(['prompt', 'prompt']);
  });

  it('autoApprove by name approves that tool only', () => {
    const m = manager({ autoApprove: ['deploy'] });
    expect([m.verdict('deploy'), m.verdict('shell')]).toEqual(['approve', 'prompt']);
  });

  it('autoApprove * approves every tool not in alwaysAsk', () => {
    const m = manager({ autoApprove: ['*'], alwaysAsk: ['shell'] });
    expect([m.verdict('deploy'), m.verdict('shell')]).toEqual(['approve', 'prompt']);
  });

  it('a tool in no list (and not read risk) prompts', () => {
    expect(manager({ autoApprove: [] }).verdict('deploy')).toBe('prompt');
  });

  it('alwaysAsk matches names trimmed and case-insensitively; autoApprove only exact names (the safe direction both ways)', () => {
    const m = manager({ alwaysAsk: [' Shell '], autoApprove: ['Deploy'] });
    expect(m.verdict('shell')).toBe('prompt');
    expect(m.verdict('deploy')).toBe('prompt');
    expect(m.verdict('Deploy')).toBe('approve');
  });

  it('list entries must be non-empty names', () => {
    expect(() => manager({ autoApprove: [''] })).toThrow(ConfigurationError);
    expect(() => manager({ alwaysAsk: [3 as never] })).toThrow(ConfigurationError);
    expect(() => manager({ alwaysAsk: 'shell' as never })).toThrow(ConfigurationError);
  });
});

describe('default autoApprove: the read-only tools by name', () => {
  it('lists exactly the read-only tools of BEHAVIOUR.md (no tool that sends data out)', () => {
    expect([...DEFAULT_AUTO_APPROVE].sort()).toEqual(
      ['file_read', 'glob_search', 'content_search', 'calculator', 'weather', 'tool_search', 'memory_recall'].sort(),
    );
  });

  it('approves them without a prompt and prompts for anything else', () => {
    const m = manager();
    for (const name of DEFAULT_AUTO_APPROVE) expect(m.verdict(name)).toBe('approve');
    expect(m.verdict('file_write')).toBe('prompt');
    expect(m.verdict('shell')).toBe('prompt');
  });

  it('an explicit autoApprove list extends the default', () => {
    const m = manager({ autoApprove: ['deploy'] });
    expect([m.verdict('deploy'), m.verdict('file_read'), m.verdict('shell')]).toEqual(['approve', 'approve', 'prompt']);
  });
});

describe('always adds the tool to the session allow-list; alwaysAsk still wins over the allow-list', () => {
  const request = (toolName: string) => ({ requestId: 'r', toolName, arguments: {}, argumentsSummary: '', channel: 'cli' });

  it('after always, the tool is approved without a prompt for the rest of the session', async () => {
    const m = new ApprovalManager({}, scriptedDoor(['always']));
    expect(m.verdict('deploy')).toBe('prompt');
    await lastValueFrom(m.decide(request('deploy')));
    expect(m.sessionAllowList.has('deploy')).toBe(true);
    expect(m.verdict('deploy')).toBe('approve');
    expect(m.verdict('shell')).toBe('prompt');
  });

  it('yes does not add to the allow-list', async () => {
    const m = new ApprovalManager({}, scriptedDoor(['yes']));
    await lastValueFrom(m.decide(request('deploy')));
    expect(m.verdict('deploy')).toBe('prompt');
  });

  it('a tool in alwaysAsk keeps prompting after always', async () => {
    const m = new ApprovalManager({ alwaysAsk: ['shell'] }, scriptedDoor(['always']));
    await lastValueFrom(m.decide(request('shell')));
    expect(m.sessionAllowList.has('shell')).toBe(true);
    expect(m.verdict('shell')).toBe('prompt');
  });

  it('the allow-list belongs to one manager (one session)', async () => {
    const a = new ApprovalManager({}, scriptedDoor(['always']));
    const b = new ApprovalManager({}, scriptedDoor([]));
    await lastValueFrom(a.decide(request('deploy')));
    expect(b.verdict('deploy')).toBe('prompt');
  });
});
