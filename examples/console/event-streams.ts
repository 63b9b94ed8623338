import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConsoleSession } from './console-session.js';
import { HttpError, SECURITY_HEADERS } from './http-util.js';
import type { WireRecord } from './wire.js';

export interface EventStreamsOptions {
  /** How many streams may be open at once; more are refused with 429. */
  readonly max: number;
  /** How many bytes a stream may have waiting to be sent, past its replay, before it is dropped. */
  readonly maxBacklog: number;
  /** How often every stream gets a comment line (so proxies keep it open). */
  readonly heartbeatMs: number;
}

/**
 * The console's Server-Sent Events streams: at most `max` open, each replaying the session's log
 * after the client's `Last-Event-ID` (or `?after=`) and then following it. A client that does not
 * read does not make the server buffer without bound: once what waits to be sent to it passes its
 * replay by `maxBacklog` bytes, its stream is dropped (a page reconnects with its `Last-Event-ID`
 * and is sent the rest from the log). A stream leaves no watcher, listener or timer behind.
 */
export class EventStreams {
  private readonly open = new Map<ServerResponse, Stream>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly session: ConsoleSession,
    private readonly options: EventStreamsOptions,
  ) {}

  /** How many streams are open now. */
  get size(): number {
    return this.open.size;
  }

  /** Answers `GET /events` (a 429 `HttpError` past the cap). */
  serve(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (this.open.size >= this.options.max) {
      throw new HttpError(429, `At most ${this.options.max} event streams may be open at once.`);
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    const after = Number(req.headers['last-event-id'] ?? url.searchParams.get('after') ?? 0);
    let stop: (() => void) | undefined;
    // no allowance while the replay is written: its size is the log's, which is bounded
    const stream: Stream = {
      allowance: Infinity,
      close: () => {
        if (this.open.get(res) !== stream) return;
        this.open.delete(res);
        stop?.();
        if (this.open.size === 0) this.heartbeat = (clearInterval(this.heartbeat), undefined);
      },
    };
    this.open.set(res, stream);
    res.once('close', stream.close);
    stop = this.session.watch(Number.isSafeInteger(after) ? after : 0, (record: WireRecord) => {
      this.write(res, `id: ${record.seq}\ndata: ${JSON.stringify(record)}\n\n`);
    });
    stream.allowance = res.writableLength + this.options.maxBacklog;
    this.heartbeat ??= setInterval(() => [...this.open.keys()].forEach((r) => this.write(r, ': ping\n\n')), this.options.heartbeatMs).unref();
  }

  /** Ends every stream (the console closes). */
  endAll(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const res of [...this.open.keys()]) res.end();
  }

  private write(res: ServerResponse, text: string): void {
    const stream = this.open.get(res);
    if (!stream || res.destroyed) return;
    res.write(text);
    if (res.writableLength > stream.allowance) {
      // a client that does not read: its place and watcher go at once, what waits for it is dropped
      stream.close();
      res.destroy();
    }
  }
}

interface Stream {
  /** The most `res.writableLength` may reach before the stream is dropped. */
  allowance: number;
  close(): void;
}
