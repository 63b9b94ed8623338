import { type Observable, of, throwError } from 'rxjs';
import { StructuredOutputError } from '../core/errors.js';
import type { OutputIssue } from '../core/structured-output.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import { scrubCredentials } from '../results/scrub.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { nextStep, type IterationStep } from './iteration-step.js';
import { outputFingerprint } from './output-fingerprint.js';
import { snapshotWith } from './turn-snapshot.js';

/** The user message that sends an answer back: what is wrong with it, and what to write instead. */
export const structuredRetryText = (problems: string): string =>
  `Your last reply is not the answer that was asked for: ${problems}. ` +
  'Reply again with only a JSON value that matches the required schema, and no other text.';

/** The message of the `StructuredOutputError` a turn fails with once the retries ran out. */
export const structuredFailureText = (retries: number, problems: string): string =>
  `The model's answer did not match the output schema after ${retries} ${retries === 1 ? 'retry' : 'retries'}: ${problems}.`;

/** At most this many problems are named; the rest are counted. */
const SHOWN_ISSUES = 10;

/**
 * The problems of an answer as one line: `path: message` for each (`(root)` for the whole
 * answer), joined by `; `; past ten, how many more.
 *
 * @example
 * ```ts
 * describeIssues([{ path: ['city'], message: 'Invalid input: expected string, received number' }]);
 * // 'city: Invalid input: expected string, received number'
 * ```
 */
export function describeIssues(issues: readonly OutputIssue[]): string {
  const shown = issues.slice(0, SHOWN_ISSUES).map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  if (issues.length > SHOWN_ISSUES) shown.push(`and ${issues.length - SHOWN_ISSUES} more`);
  return shown.join('; ');
}

/**
 * The end of a turn with an output schema whose model answered without calls. The reply's text
 * is parsed and validated (`OutputSchema.check`): valid, the turn is done with the value as
 * `object`; otherwise, while `maxStructuredOutputRetries` allows, the reply stays in history
 * followed by a user message naming the problems (`structuredRetryText`), and another iteration
 * asks again (the count is kept in the snapshot's `output.retries`); after that, the turn fails
 * with a `StructuredOutputError` carrying the last text, the problems and the history so far.
 *
 * ```
 * reply valid:    (d|)     d: done 'final', with object
 * reply invalid:  (n|)     n: next, the correction in history
 * retries spent:  #        StructuredOutputError
 * ```
 * @example
 * ```ts
 * if (it.turn.output) return structuredAnswer(it, response.text, nextSnapshot(it, { history, usage }), answer);
 * ```
 * @param it The iteration (its turn has an `output`).
 * @param text The reply as the model wrote it.
 * @param next The snapshot after the iteration, the reply already in its history.
 * @param answer `done.text` when the reply is valid (the reply, perhaps with receipts listed).
 * @return The next step, or the error.
 */
export function structuredAnswer(it: IterationContext, text: string, next: TurnSnapshot, answer: string): Observable<IterationStep> {
  const output = it.turn.output!;
  const checked = output.check(text);
  if (checked.ok) return of({ kind: 'done', snapshot: next, text: answer, reason: 'final', object: checked.value });
  const retries = next.output?.retries ?? 0;
  const problems = describeIssues(checked.issues);
  if (retries >= it.resolved.knobs.maxStructuredOutputRetries) return structuredFailure(text, checked.issues, next);
  const history = [...next.history, { role: 'user' as const, content: structuredRetryText(problems) }];
  const fingerprint = next.output?.fingerprint ?? outputFingerprint(output.format);
  return of(nextStep(snapshotWith(next, { history, output: { fingerprint, retries: retries + 1 } })));
}

/**
 * A turn with an output schema that ends without a valid answer fails: a `StructuredOutputError`
 * with the last reply, its problems, the retries spent and the history (the message scrubbed).
 *
 * ```
 * result: #
 * ```
 * @example
 * ```ts
 * return structuredFailure(response.text, [{ path: [], message: 'a tool call that could not be parsed' }], next);
 * ```
 */
export function structuredFailure(text: string, issues: readonly OutputIssue[], next: TurnSnapshot): Observable<never> {
  const retries = next.output?.retries ?? 0;
  const message = scrubCredentials(structuredFailureText(retries, describeIssues(issues)));
  return throwError(() => new StructuredOutputError(message, text, issues, retries, next.history));
}
