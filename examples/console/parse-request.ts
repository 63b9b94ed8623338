import { idProblem } from '../../src/durable/index.js';
import { HttpError } from './http-util.js';
import type { OperatorAnswer } from './wire.js';

/** The operator's answer in a decision body: yes, no, always, or replace with `replaceWith`. */
export function parseAnswer(body: Record<string, unknown>): OperatorAnswer {
  const { decision, replaceWith } = body;
  if (decision === 'yes' || decision === 'no' || decision === 'always') return decision;
  if (decision === 'replace') {
    if (typeof replaceWith !== 'string') throw new HttpError(400, "A 'replace' decision needs the replacement text in 'replaceWith'.");
    return { replaceWith };
  }
  throw new HttpError(400, "'decision' must be one of yes, no, always, replace.");
}

/** The deciding tab's id (any short printable text), so the other tabs can say who decided. */
export function parseTab(body: Record<string, unknown>): string {
  const tab = body.tab;
  return typeof tab === 'string' && /^[\w-]{1,64}$/.test(tab) ? tab : 'api';
}

/** The request's URL (its path and query); one that does not parse is a 400. */
export function parseUrl(target: string | undefined): URL {
  try {
    return new URL(target ?? '/', 'http://console.invalid');
  } catch {
    throw new HttpError(400, 'The request URL is malformed.');
  }
}

/**
 * A `%`-escaped path segment as a request id; a malformed escape (`%zz`, a cut UTF-8 sequence) is
 * a 400, and so is text that is no id a turn store keeps (`idProblem`: a NUL, over 256 characters, …).
 */
export function decodeId(segment: string): string {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'The request id has a malformed % escape.');
  }
  const problem = idProblem(id);
  if (problem !== undefined) throw new HttpError(400, `The request id ${problem}.`);
  return id;
}

/** The store's turn id a decision names (optional: the console knows the turn of a card it shows); malformed is a 400. */
export function parseTurnId(body: Record<string, unknown>): string | undefined {
  const { turnId } = body;
  if (turnId === undefined) return undefined;
  if (typeof turnId !== 'string' || !/^[\w.:-]{1,128}$/.test(turnId)) throw new HttpError(400, "'turnId' must be a turn id.");
  return turnId;
}
