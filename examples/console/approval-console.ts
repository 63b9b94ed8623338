import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Observable } from 'rxjs';
import { ConfigurationError, type ApprovalRequest } from '../../src/index.js';
import type { DurableAgent, StoredTurn } from '../../src/durable/index.js';
import { ConsoleSession, type ConsoleSessionOptions, type TurnRunner } from './console-session.js';
import { DurableFeed } from './durable-feed.js';
import { StoreTurns } from './store-turns.js';
import { boundHosts, checkHost, checkOrigin, checkToken, HttpError, readJsonObject, sendJson, SECURITY_HEADERS } from './http-util.js';
import { decodeId, parseAnswer, parseTab, parseTurnId, parseUrl } from './parse-request.js';
import type { OperatorAnswer, WireRecord } from './wire.js';

export interface ApprovalConsoleOptions extends ConsoleSessionOptions {
  /** Default '127.0.0.1': only this machine can reach the console. */
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** The session token (base64url, 16+ characters). Default: 24 random bytes. */
  readonly token?: string;
  /**
   * More `host:port` names the console answers to (a proxy's, a bind to 0.0.0.0). Requests
   * with any other `Host` are refused with 421; the bound address (and `localhost` for a
   * loopback bind) always counts.
   */
  readonly allowedHosts?: readonly string[];
  /** How many event streams may be open at once; more are refused with 429. Default 8. */
  readonly maxStreams?: number;
  /**
   * A durable agent whose store this console shows: the turns of its agent that are queued,
   * running or parked on any instance (their events replayed, then followed), their pending
   * approvals decided through `durable.decide` (the first decision on any instance wins), and
   * the page's own turns run with `durable.run`. Without it the console runs and decides the
   * turns of `serve(runner)` in this process.
   */
  readonly durable?: DurableAgent;
  /** With `durable`: the conversation of the page's turns. Default a new id per console. */
  readonly conversationId?: string;
  /** With `durable`: who this console's decisions are by, in the store and its audit log. Default 'web-console'. */
  readonly decidedBy?: string;
  /** With `durable`: which of the agent's turns this console shows and decides (a tenant's, a team's). Default all. */
  readonly showTurn?: (turn: StoredTurn) => boolean;
}

export interface ApprovalConsole {
  readonly token: string;
  /** The backchannel front door's `request(req, signal)`: pass it to `backchannelApproval`. */
  readonly request: (req: ApprovalRequest, signal?: AbortSignal) => Observable<OperatorAnswer | null>;
  readonly session: ConsoleSession;
  /** Sets the agent whose turns the page starts. */
  serve(runner: TurnRunner): void;
  /** Starts listening; resolves to the page's URL, token included. */
  listen(): Promise<string>;
  /** Ends the session, every connection and the server. */
  close(): Promise<void>;
}

const page = (name: string): string => readFileSync(new URL(`./page/${name}`, import.meta.url), 'utf8');
const STATIC: Record<string, { type: string; body: string }> = {
  '/cards.js': { type: 'text/javascript; charset=utf-8', body: page('cards.js') },
  '/app.js': { type: 'text/javascript; charset=utf-8', body: page('app.js') },
  '/style.css': { type: 'text/css; charset=utf-8', body: page('style.css') },
};
const INDEX = page('index.html');
const BODY_LIMIT = 256 * 1024;
const HEARTBEAT_MS = 15_000;
const MAX_STREAMS = 8;

/**
 * A web approval console: a node:http server that streams the turns of one agent to a page
 * (Server-Sent Events, replayed in full to every new connection) and answers its approval
 * requests from the page's Approve / Deny / Always / Edit-and-replace controls. Every request needs
 * the session token and a `Host` the console listens on; at most `maxStreams` event streams.
 *
 * @example
 * ```ts
 * const web = createApprovalConsole();
 * const approval = new ApprovalManager({ level: 'supervised' }, backchannelApproval(web.request));
 * web.serve(createAgent({ provider, model, tools, approval }));
 * console.log(await web.listen()); // http://127.0.0.1:41234/?token=…
 * ```
 */
export function createApprovalConsole(options: ApprovalConsoleOptions = {}): ApprovalConsole {
  const token = options.token ?? randomBytes(24).toString('base64url');
  if (!/^[A-Za-z0-9_-]{16,}$/.test(token)) {
    throw new ConfigurationError('The console token must be at least 16 base64url characters.');
  }
  const session = new ConsoleSession(options);
  const feed = options.durable ? new DurableFeed(options.durable, session, { decidedBy: options.decidedBy ?? 'web-console', showTurn: options.showTurn }) : undefined;
  const storeTurns = options.durable
    ? new StoreTurns(options.durable, session, {
        channel: options.channel ?? 'web-console',
        conversationId: options.conversationId ?? `web-console-${randomBytes(8).toString('hex')}`,
      })
    : undefined;
  const streams = new Set<ServerResponse>();
  const maxStreams = options.maxStreams ?? MAX_STREAMS;
  let hosts: ReadonlySet<string> = new Set();
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const stream = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    if (streams.size >= maxStreams) throw new HttpError(429, `At most ${maxStreams} event streams may be open at once.`);
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    const after = Number(req.headers['last-event-id'] ?? url.searchParams.get('after') ?? 0);
    streams.add(res);
    heartbeat ??= setInterval(() => streams.forEach((s) => s.write(': ping\n\n')), HEARTBEAT_MS).unref();
    const stop = session.watch(Number.isSafeInteger(after) ? after : 0, (record: WireRecord) => {
      res.write(`id: ${record.seq}\ndata: ${JSON.stringify(record)}\n\n`);
    });
    res.on('close', () => {
      stop();
      streams.delete(res);
      if (streams.size === 0) heartbeat = (clearInterval(heartbeat), undefined);
    });
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    checkHost(req, hosts);
    const url = parseUrl(req.url);
    checkToken(req, url, token);
    const path = url.pathname;
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (path === '/' || path === '/index.html') {
        const body = INDEX.replaceAll('__TOKEN__', token);
        res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      if (path === '/events' && req.method === 'GET') return stream(req, res, url);
      if (path === '/api/approvals' && req.method === 'GET') {
        return sendJson(res, 200, { approvals: [...session.approvals.list(), ...((await feed?.listPending()) ?? [])] });
      }
      const asset = STATIC[path];
      if (asset) {
        res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': asset.type });
        res.end(req.method === 'HEAD' ? undefined : asset.body);
        return;
      }
      throw new HttpError(404, 'Not found.');
    }
    if (req.method !== 'POST') throw new HttpError(405, 'Method not allowed.');
    checkOrigin(req);
    const body = await readJsonObject(req, BODY_LIMIT);
    if (path === '/api/turns') {
      if (typeof body.message !== 'string' || body.message.trim() === '') throw new HttpError(400, 'Send a non-empty message.');
      const started = storeTurns ? await storeTurns.start(body.message) : session.startTurn(body.message);
      if (started === 'busy') throw new HttpError(409, 'A turn is already running.');
      if (started === 'no-agent') throw new HttpError(503, 'No agent is attached to this console.');
      return sendJson(res, 202, { ok: true });
    }
    if (path === '/api/turns/cancel') {
      if (!(storeTurns?.cancel() ?? false) && !session.cancelTurn()) throw new HttpError(409, 'No turn is running.');
      return sendJson(res, 202, { ok: true });
    }
    const decision = /^\/api\/approvals\/([^/]+)$/.exec(path);
    if (decision) {
      const requestId = decodeId(decision[1]);
      const [answer, tab, turnId] = [parseAnswer(body), parseTab(body), parseTurnId(body)];
      const result = turnId === undefined ? session.approvals.decide(requestId, answer, tab) : 'unknown';
      if (result === 'accepted') return sendJson(res, 200, { ok: true });
      if (result === 'already-decided') return alreadyDecided(res, session.approvals.answerOf(requestId) ?? undefined);
      const stored = feed ? await feed.decide(requestId, answer, tab, turnId) : undefined;
      if (stored?.status === 'accepted') return sendJson(res, 200, { ok: true });
      if (stored?.status === 'taken') return alreadyDecided(res, stored.winner.decision, stored.winner.decidedBy);
      throw new HttpError(404, 'No approval request with this id is pending in this turn.');
    }
    throw new HttpError(404, 'Not found.');
  };

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      const message = err instanceof HttpError ? err.message : 'Internal error.';
      if (!res.headersSent) sendJson(res, status, { error: message });
      else res.end();
    });
  });

  return {
    token,
    request: session.request,
    session,
    serve: (runner) => session.serve(runner),
    listen: async () => {
      await feed?.start();
      return new Promise<string>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
          server.off('error', reject);
          const { address, port } = server.address() as AddressInfo;
          hosts = boundHosts(address, port, options.allowedHosts);
          const host = address.includes(':') ? `[${address}]` : address;
          resolve(`http://${host}:${port}/?token=${token}`);
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        feed?.close();
        storeTurns?.close();
        session.close();
        clearInterval(heartbeat);
        for (const res of streams) res.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A 409 for a second decision, with the one that won (when an operator's). */
function alreadyDecided(res: ServerResponse, decision?: OperatorAnswer, decidedBy?: string): void {
  sendJson(res, 409, { error: 'This request was already decided.', ...(decision === undefined ? {} : { decision }), ...(decidedBy === undefined ? {} : { decidedBy }) });
}
