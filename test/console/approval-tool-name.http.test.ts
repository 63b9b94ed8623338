import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/index.js';
import { ConsoleSession } from '../../examples/console/console-session.js';
import type { WireRecord } from '../../examples/console/wire.js';
import { leakedWindows } from '../fixtures/secrets-corpus.js';
import { tokenShapedToolNames } from '../fixtures/token-tool-names.js';

/** Issue 16, item 4: the console's approval-open shows a token-shaped tool name scrubbed. */

const request = (requestId: string, toolName: string): ApprovalRequest => ({
  requestId,
  toolName,
  arguments: { path: 'a' },
  argumentsSummary: 'path: a',
  channel: 'web-console',
});

describe('the console’s approval-open event scrubs a token-shaped tool name', () => {
  it('every token shape the scrubber knows is sent as [REDACTED], with the request still answerable', () => {
    const names = tokenShapedToolNames();
    const session = new ConsoleSession();
    const records: WireRecord[] = [];
    const stop = session.watch(0, (r) => records.push(r));
    const subs = names.map((name, i) => session.request(request(`r${i}`, name)).subscribe());
    const opened = records.flatMap((r) => (r.event.type === 'approval-open' ? [r.event] : []));
    expect(opened).toHaveLength(names.length);
    for (const event of opened) expect(event.toolName).toBe('[REDACTED]');
    for (const name of names) expect({ name, leaked: leakedWindows(JSON.stringify(records), name) }).toEqual({ name, leaked: [] });
    expect(session.approvals.decide('r0', 'no', 'tab')).toBe('accepted');
    for (const sub of subs) sub.unsubscribe();
    stop();
    session.close();
  });

  it('an ordinary name is shown as it is, and control or invisible characters escaped', () => {
    const session = new ConsoleSession();
    const records: WireRecord[] = [];
    const stop = session.watch(0, (r) => records.push(r));
    const subs = [session.request(request('a', 'file_write')).subscribe(), session.request(request('b', 'rm\u202E\u001b[2Kx')).subscribe()];
    const names = records.flatMap((r) => (r.event.type === 'approval-open' ? [r.event.toolName] : []));
    expect(names).toEqual(['file_write', 'rm\\u202e\\u001b[2Kx']);
    for (const sub of subs) sub.unsubscribe();
    stop();
    session.close();
  });
});
