import { defer, of, timeout, type Observable } from 'rxjs';
import { ConfigurationError } from '../core/errors.js';
import { duration } from '../core/knobs.js';
import type { ApprovalAnswer, ApprovalAnswerInput, ApprovalFrontDoor, ApprovalRequest } from './approval-port.js';
import { answerInput, isPendingAnswer } from './answer-input.js';

/** Asks a remote operator (a web page, an RPC peer). `signal` aborts when the question is withdrawn. */
export type BackchannelRequest = (request: ApprovalRequest, signal: AbortSignal) => ApprovalAnswerInput;

/** Options of `backchannelApproval`. */
export interface BackchannelApprovalOptions {
  /** No answer within this many ms = unanswerable (denied by policy). Default: wait until cancelled. */
  readonly timeoutMs?: number;
  /** The deciding channel recorded in events and the audit log. Default 'backchannel'. */
  readonly name?: string;
}

/**
 * The front door for a turn without a terminal whose channel can still reach an operator. The
 * callback answers 'yes' / 'no' / 'always' / `{ replaceWith }` — directly, as a Promise or as an
 * Observable (first value). `null`, an error, completing without a value, or the timeout make
 * the prompt unanswerable: the call is denied by policy.
 *
 * ```
 * prompt:   ^
 * operator: ----y|            (an Observable answer)
 * decision: ----(y|)
 * timeout:  --|               (timeoutMs = 2 frames, instead)
 * decision: --(n|)            decided by 'policy'
 * ```
 * @example
 * ```ts
 * const door = backchannelApproval((req, signal) => peer.ask(req, signal), { timeoutMs: 60_000 }); // peer: your web page or RPC link
 * const approval = new ApprovalManager({ alwaysAsk: ['shell'] }, door);
 * ```
 */
export function backchannelApproval(request: BackchannelRequest, options: BackchannelApprovalOptions = {}): ApprovalFrontDoor {
  if (typeof request !== 'function') throw new ConfigurationError('backchannelApproval needs a request callback.');
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) throw new ConfigurationError('backchannelApproval: timeoutMs must be a positive number.');
  // whole ms; past Node's timer limit (Infinity included) is no deadline, never one that fires at once
  const timeoutMs = duration('backchannelApproval: timeoutMs', options.timeoutMs, undefined, true);
  return Object.freeze({
    name: options.name ?? 'backchannel',
    ask: (req: ApprovalRequest, signal: AbortSignal): ApprovalAnswerInput => {
      if (timeoutMs === undefined) return request(req, signal);
      const answered: Observable<unknown> = defer((): Observable<unknown> => {
        const answer = request(req, signal);
        return isPendingAnswer(answer) ? answerInput(answer) : of(answer);
      }).pipe(timeout({ first: timeoutMs, with: (): Observable<unknown> => of(null) }));
      return answered as Observable<ApprovalAnswer>;
    },
  });
}
