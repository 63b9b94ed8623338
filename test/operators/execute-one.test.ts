import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { PreparedCall, SlotResult } from '../../src/index.js';
import { executeOne, toPrepared } from '../../src/operators.js';
import { fakeTool } from '../../src/testing/index.js';
import { cards, echo, executable, parsed, setup } from './helpers.js';

describe('executeOne: opens the card right before the tool starts and closes it with the result', () => {
  it('the tool-call event goes out before execute runs; the tool-result event after it returns', () => {
    let eventsWhenStarted = -1;
    const tool = echo('t', () => {
      eventsWhenStarted = events.length;
      return 'done';
    });
    const { resolved, turn, events } = setup({ tools: [tool] });
    const progress = new Uint8Array(1);
    const out: SlotResult[] = [];
    executeOne(resolved, turn, executable(0, tool), progress).subscribe((r) => out.push(r));
    expect(eventsWhenStarted).toBe(1);
    expect(cards(events)).toEqual(['call t#0', 't#0 executed']);
    expect(out.map((r) => [r.slot, r.outcome, r.content])).toEqual([[0, 'executed', 'done']]);
    expect(progress[0]).toBe(2);
  });

  it('a filled slot opens and closes its card without running anything', () => {
    const { resolved, turn, events } = setup();
    const call: PreparedCall = { ...toPrepared(parsed(0, 'nope')), filled: { outcome: 'unknown', output: 'Unknown tool: nope', success: false } };
    const out: SlotResult[] = [];
    executeOne(resolved, turn, call, new Uint8Array(1)).subscribe((r) => out.push(r));
    expect(cards(events)).toEqual(['call nope#0', 'nope#0 unknown']);
    expect(out[0]).toMatchObject({ outcome: 'unknown', success: false, content: 'Unknown tool: nope', durationMs: 0 });
  });

  it('a slot whose card is already open (a torn-down run) closes without a second tool-call', () => {
    const { resolved, turn, events } = setup();
    const progress = Uint8Array.of(1);
    const call = { ...toPrepared(parsed(0, 't')), filled: { outcome: 'interrupted' as const, output: 'x', success: false } };
    executeOne(resolved, turn, call, progress).subscribe();
    expect(cards(events)).toEqual(['t#0 interrupted']);
  });

  it('on a turn already cancelled an executable call neither starts nor opens a card', () => {
    let started = false;
    const tool = echo('t', () => ((started = true), 'x'));
    const ac = new AbortController();
    ac.abort();
    const { resolved, turn, events } = setup({ tools: [tool], input: { signal: ac.signal } });
    let completed = false;
    executeOne(resolved, turn, executable(0, tool), new Uint8Array(1)).subscribe({ complete: () => (completed = true) });
    expect([started, completed, events]).toEqual([false, true, []]);
  });
});

describe("executeOne: the tool's signal aborts only when it is torn down before it finished", () => {
  it('unsubscribing while the tool runs aborts its signal and unsubscribes its Observable', () => {
    const pending = new Subject<string>();
    const tool = fakeTool('t', pending);
    const { resolved, turn } = setup({ tools: [tool] });
    const sub = executeOne(resolved, turn, executable(0, tool), new Uint8Array(1)).subscribe();
    expect(tool.calls[0].signal.aborted).toBe(false);
    sub.unsubscribe();
    expect(tool.calls[0].signal.aborted).toBe(true);
    expect(pending.observed).toBe(false);
  });

  it('a tool that finished keeps its signal un-aborted', () => {
    const tool = fakeTool('t', 'ok');
    const { resolved, turn } = setup({ tools: [tool] });
    executeOne(resolved, turn, executable(0, tool), new Uint8Array(1)).subscribe().unsubscribe();
    expect(tool.calls[0].signal.aborted).toBe(false);
  });
});
