import pino from 'pino';
import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, logTurn, type Logger, pinoScrubbing, ProviderError, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { leaksOf } from '../fixtures/leak-search.js';

type Line = Record<string, unknown> & { level: number; msg: string };

function pinoInto(level = 'debug', options: pino.LoggerOptions = {}) {
  const lines: Line[] = [];
  const logger = pino({ level, base: undefined, timestamp: false, ...options }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  return { logger, lines };
}

// risk 'read': an agent without approval warns about any other tool at createAgent (a line of its own)
const add = defineTool({ name: 'add', description: 'adds', parameters: z.object({ a: z.number(), b: z.number() }), risk: 'read', execute: ({ a, b }) => String(a + b) });
const broken = defineTool({ name: 'broken', description: 'fails', parameters: z.object({}), risk: 'read', execute: () => ({ success: false, output: 'disk full' }) });
const turnScript = () =>
  scriptedModel([
    { toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 1, b: 2 } }, { id: 'c2', name: 'broken', arguments: {} }], usage: { inputTokens: 10, outputTokens: 5 } },
    { text: 'three' },
  ]);

describe('a pino logger passed to createAgent logs each turn through a child logger carrying the turn id', () => {
  it('every line of the turn carries its turn id and the agent alias', async () => {
    const { logger, lines } = pinoInto();
    const agent = createAgent({ name: 'helper', provider: turnScript(), model: 'm', tools: [add, broken], logger });
    await agent.complete({ message: 'go', ingress: { channel: 'slack', turnId: 'turn-7' } });
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(line).toMatchObject({ turnId: 'turn-7', agent: 'helper' });
  });

  it('levels: iterations, calls and usage at debug; results and the end at info; a failed tool at warn', async () => {
    const { logger, lines } = pinoInto();
    const agent = createAgent({ provider: turnScript(), model: 'm', tools: [add, broken], logger });
    await agent.complete({ message: 'go', ingress: { channel: 'slack', turnId: 't' } });
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [20, 'turn started'],
      [20, 'iteration'],
      [20, 'usage'],
      [20, 'tool call'],
      [30, 'tool result'],
      [20, 'tool call'],
      [40, 'tool result'],
      [20, 'iteration'],
      [30, 'turn done'],
    ]);
    expect(lines[3]).toMatchObject({ tool: 'add', toolCallId: 'c1', iteration: 1, slot: 0, args: { a: 1, b: 2 } });
    expect(lines[6]).toMatchObject({ tool: 'broken', toolCallId: 'c2', outcome: 'failed', success: false, output: 'Error: disk full' });
    expect(lines[8]).toMatchObject({ reason: 'final', iterations: 2, textChars: 5 });
  });

  it('each turn gets its own child: a second turn logs a different generated turn id', async () => {
    const { logger, lines } = pinoInto();
    let n = 0;
    const provider = scriptedModel(() => ({ text: 'hi' }));
    const agent = createAgent({ provider, model: 'm', tools: [], logger, ids: () => `id-${++n}` });
    await agent.complete({ message: 'one' });
    await agent.complete({ message: 'two' });
    expect([...new Set(lines.map((l) => l.turnId))]).toEqual(['id-1', 'id-2']);
  });

  it('a failed turn is logged at error with its code and a scrubbed message', async () => {
    const { logger, lines } = pinoInto();
    const provider = scriptedModel([]);
    provider.request = () => {
      throw new ProviderError('Incorrect API key provided: sk-live0123456789abcdefghij', { status: 401 });
    };
    const agent = createAgent({ provider, model: 'm', tools: [], logger });
    await expect(agent.complete({ message: 'go' })).rejects.toBeInstanceOf(ProviderError);
    const failed = lines.find((l) => l.msg === 'turn failed')!;
    expect(failed.level).toBe(50);
    expect(failed.code).toBe('provider_error');
    expect(leaksOf(failed, '0123456789abcdef')).toEqual([]);
  });

  it("the failed turn's error line keeps the error's class (err.type), with or without pinoScrubbing", async () => {
    for (const options of [{}, pinoScrubbing]) {
      const { logger, lines } = pinoInto('debug', options);
      const agent = createAgent({ provider: scriptedModel([]), model: 'm', tools: [], logger });
      await expect(agent.complete({ message: 'go' })).rejects.toBeInstanceOf(ProviderError);
      const err = lines.find((l) => l.msg === 'turn failed')!.err as Record<string, unknown>;
      expect(err.type).toBe('ProviderError');
      expect(err.code).toBe('provider_error');
      expect(err.message).toMatch(/scripted model/);
    }
  });

  it('at level info no debug line is written', async () => {
    const { logger, lines } = pinoInto('info');
    const agent = createAgent({ provider: turnScript(), model: 'm', tools: [add, broken], logger });
    await agent.complete({ message: 'go' });
    expect(lines.map((l) => l.msg)).toEqual(['tool result', 'tool result', 'turn done']);
  });

  it("a logger's isLevelEnabled decides: a line it says it drops never reaches it; a check that throws lets lines through", async () => {
    const received = (isLevelEnabled: (level: string) => boolean) => {
      const seen: string[] = [];
      const record = (level: string) => (_obj: object, msg?: string) => void seen.push(`${level} ${msg}`);
      const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error'), isLevelEnabled };
      return { logger, seen };
    };
    const quiet = received((level) => level !== 'debug');
    await createAgent({ provider: turnScript(), model: 'm', tools: [add, broken], logger: quiet.logger }).complete({ message: 'go' });
    expect(quiet.seen).toEqual(['info tool result', 'warn tool result', 'info turn done']);
    const broken$ = received(() => {
      throw new Error('no level');
    });
    await createAgent({ provider: turnScript(), model: 'm', tools: [add, broken], logger: broken$.logger }).complete({ message: 'go' });
    expect(broken$.seen.filter((line) => line.startsWith('debug')).length).toBeGreaterThan(0);
    expect(broken$.seen).toContain('info turn done');
  });
});

describe('logTurn works with any Logger and passes events through unchanged', () => {
  it('a logger without child gets the bindings on every line', async () => {
    const calls: [string, object, string | undefined][] = [];
    const logger: Logger = {
      debug: (o, m) => void calls.push(['debug', o, m]),
      info: (o, m) => void calls.push(['info', o, m]),
      warn: (o, m) => void calls.push(['warn', o, m]),
      error: (o, m) => void calls.push(['error', o, m]),
    };
    const events: TurnEvent[] = [
      { type: 'iteration', iteration: 1 },
      { type: 'done', text: 'x', reason: 'final', history: [], iterations: 1, usage: { inputTokens: 0, outputTokens: 0 } },
    ];
    const out = await lastValueFrom(of(...events).pipe(logTurn(logger, { turnId: 'abc' }), toArray()));
    expect(out).toEqual(events);
    expect(calls).toEqual([
      ['debug', { turnId: 'abc', channel: undefined }, 'turn started'],
      ['debug', { turnId: 'abc', iteration: 1 }, 'iteration'],
      ['info', { turnId: 'abc', reason: 'final', iterations: 1, textChars: 1 }, 'turn done'],
    ]);
  });
});

describe('pinoScrubbing keeps credentials out of lines your own code logs', () => {
  it('secret-named fields are censored and secret shapes in any string are redacted', () => {
    const { logger, lines } = pinoInto('info', { ...pinoScrubbing });
    logger.info(
      {
        password: 'correct horse',
        request: { headers: { authorization: 'Bearer abcdefghijklmnop' } },
        deep: { db: { conn: { secret_key: 'abcdefghijkl', url: 'postgres://u:pw12345678@h/db' } } },
        note: `key ghp_${'a'.repeat(36)}`,
      },
      'login',
    );
    expect(lines[0]).toMatchObject({
      password: '[REDACTED]',
      request: { headers: { authorization: '[REDACTED]' } },
      deep: { db: { conn: { secret_key: '[REDACTED]', url: 'postgres://u:[REDACTED]@h/db' } } },
      note: 'key [REDACTED]',
    });
  });
});

describe('only a failed tool is a warning; other unsuccessful outcomes are information', () => {
  it('an unknown tool or invalid arguments are logged at info', async () => {
    const { logger, lines } = pinoInto('info');
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 'u', name: 'nope', arguments: {} }, { id: 'v', name: 'add', arguments: { a: 'x' } }] }, { text: 'ok' }]),
      model: 'm',
      tools: [add],
      logger,
    });
    await agent.complete({ message: 'go' });
    expect(lines.filter((l) => l.msg === 'tool result').map((l) => [l.toolCallId, l.outcome, l.level])).toEqual([
      ['u', 'unknown', 30],
      ['v', 'invalid-arguments', 30],
    ]);
  });
});
