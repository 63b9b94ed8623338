import { from, isObservable, type Observable } from 'rxjs';
import type { ApprovalAnswerInput } from './approval-port.js';

/** True for an answer that arrives later (a Promise or an Observable). */
export const isPendingAnswer = (input: unknown): input is PromiseLike<unknown> | Observable<unknown> =>
  isObservable(input) || (input !== null && typeof input === 'object' && typeof (input as PromiseLike<unknown>).then === 'function');

/**
 * An answer as an Observable: Promises and Observables as they are, anything else (a string
 * like 'yes' included, which must not be read character by character) as one value.
 *
 * @example
 * ```ts
 * answerInput('yes').subscribe(console.log); // 'yes'
 * ```
 */
export function answerInput(input: ApprovalAnswerInput | unknown): Observable<unknown> {
  return isPendingAnswer(input) ? from(input) : from([input]);
}
