import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Observable } from 'rxjs';
import { ConfigurationError, type ApprovalRequest } from '../../src/index.js';
import { idProblem, type DurableAgent, type StoredTurn } from '../../src/durable/index.js';
import { ConsoleSession, type ConsoleSessionOptions, type TurnRunner } from './console-session.js';
import { DurableFeed } from './durable-feed.js';
import { StoreTurns } from './store-turns.js';
import { EventStreams } from './event-streams.js';
import { boundHosts, checkHost, checkOrigin, checkToken, closeAfterHugeBody, discardBody, HttpError, readJsonObject, sendJson, SECURITY_HEADERS } from './http-util.js';
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
   * How many bytes may wait to be sent to one event stream (past its replay) before the stream is
   * dropped: a client that stops reading is cut off, not buffered for. Default 1 MiB.
   */
  readonly maxStreamBacklog?: number;
  /** How long a client has to send a request's headers (slowloris); then 408 and closed. Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** How long a client has to send a whole request, body included. Default 30 s (an event stream's response is not limited). */
  readonly requestTimeoutMs?: number;
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
  /** The node:http server (its timeouts, connections). */
  readonly server: Server;
  /** How many event streams are open now. */
  readonly openStreams: number;
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
const MAX_STREAM_BACKLOG = 1024 * 1024;
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * A web approval console: a node:http server that streams the turns of one agent to a page
 * (Server-Sent Events, replayed in full to every new connection) and answers its approval
 * requests from the page's Approve / Deny / Always / Edit-and-replace controls. Every request needs
 * the session token and a `Host` the console listens on; a POST also a JSON body of at most 256 KiB
 * from no other site; at most `maxStreams` event streams, none of which buffers without bound.
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
  for (const [value, what] of [[options.decidedBy, 'decidedBy'], [options.conversationId, 'conversationId']] as const) {
    const problem = value === undefined ? undefined : idProblem(value);
    if (problem !== undefined) throw new ConfigurationError(`The console's ${what} ${problem}; the store keeps it as an id.`);
  }
  const session = new ConsoleSession(options);
  const feed = options.durable ? new DurableFeed(options.durable, session, { decidedBy: options.decidedBy ?? 'web-console', showTurn: options.showTurn }) : undefined;
  const storeTurns = options.durable
    ? new StoreTurns(options.durable, session, {
        channel: options.channel ?? 'web-console',
        conversationId: options.conversationId ?? `web-console-${randomBytes(8).toString('hex')}`,
      })
    : undefined;
  const streams = new EventStreams(session, {
    max: whole('maxStreams', options.maxStreams, MAX_STREAMS),
    maxBacklog: whole('maxStreamBacklog', options.maxStreamBacklog, MAX_STREAM_BACKLOG),
    heartbeatMs: HEARTBEAT_MS,
  });
  let hosts: ReadonlySet<string> = new Set();

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    checkHost(req, hosts);
    const url = parseUrl(req.url);
    checkToken(req, url, token);
    const path = url.pathname;
    if (req.method === 'GET' || req.method === 'HEAD') {
      discardBody(req); // a GET's body is never read
      if (path === '/' || path === '/index.html') {
        const body = INDEX.replaceAll('__TOKEN__', token);
        res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      if (path === '/events' && req.method === 'GET') return streams.serve(req, res, url);
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

  const requestTimeout = whole('requestTimeoutMs', options.requestTimeoutMs, REQUEST_TIMEOUT_MS);
  const headersTimeout = Math.min(whole('headersTimeoutMs', options.headersTimeoutMs, HEADERS_TIMEOUT_MS), requestTimeout);
  // Node looks for expired requests every connectionsCheckingInterval (default 30 s)
  const connectionsCheckingInterval = Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4)));
  const server = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval }, (req, res) => {
    closeAfterHugeBody(req, res);
    route(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      const message = err instanceof HttpError ? err.message : 'Internal error.';
      if (!res.headersSent) (discardBody(req), sendJson(res, status, { error: message }));
      else res.end();
    });
  });

  return {
    token,
    request: session.request,
    session,
    server,
    get openStreams() {
      return streams.size;
    },
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
        streams.endAll();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A 409 for a second decision, with the one that won (when an operator's). */
function alreadyDecided(res: ServerResponse, decision?: OperatorAnswer, decidedBy?: string): void {
  sendJson(res, 409, { error: 'This request was already decided.', ...(decision === undefined ? {} : { decision }), ...(decidedBy === undefined ? {} : { decidedBy }) });
}

/** A whole, positive knob below Node's timer limit (undefined: the default). */
function whole(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > 2_147_483_647) {
    throw new ConfigurationError(`${name} must be a whole number from 1 to 2147483647 (got ${String(value)}).`);
  }
  return value;
}
