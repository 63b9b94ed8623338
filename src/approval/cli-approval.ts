import { closeSync, openSync, writeSync } from 'node:fs';
import { isatty, ReadStream } from 'node:tty';
import { Observable } from 'rxjs';
import type { ApprovalAnswer, ApprovalFrontDoor, ApprovalRequest } from './approval-port.js';
import { formatFullArgs } from './format-full-args.js';
import { readLine, type LineInput } from './read-line.js';
import { shownToolName } from './shown-tool-name.js';

/** Where `cliApproval` asks. Both default to the terminal (`/dev/tty`), else stdin and stderr. */
export interface CliApprovalOptions {
  /** A Node readable stream, such as `process.stdin`. */
  readonly input?: LineInput;
  readonly output?: { write(text: string): unknown };
  /** Line width of the full arguments printed before each question. Default 100. */
  readonly width?: number;
}

/**
 * The terminal front door. Each prompt writes every argument the tool will receive (escaped,
 * long values wrapped, nothing cut), then the question with the argument summary, and reads one
 * line: `y`/`yes` → yes, `a`/`always` → always, anything else (empty input too) → no, the
 * operator's. End of input or a read error is nobody's answer: the prompt is unanswerable, and
 * policy denies the call (`decidedBy: 'policy'`, `byOperator: false`). Without given streams it opens the controlling terminal for the
 * question (so piped stdin stays the app's) and falls back to stdin/stderr when there is none.
 * Nothing is read between questions, and a withdrawn question stops reading. (Like `node:readline`,
 * a process that read piped stdin keeps it open until its writer closes it.)
 *
 * ```
 * prompt:   ^
 * operator: ---"y\n"
 * decision: ---(y|)
 * ```
 * @example
 * ```ts
 * const approval = new ApprovalManager({ alwaysAsk: ['shell'] }, cliApproval());
 * ```
 */
export function cliApproval(options: CliApprovalOptions = {}): ApprovalFrontDoor {
  return Object.freeze({
    name: 'cli',
    ask: (request: ApprovalRequest) =>
      new Observable<ApprovalAnswer>((subscriber) => {
        const terminal = options.input && options.output ? undefined : openTerminal();
        const input = options.input ?? terminal?.input ?? process.stdin;
        const output = options.output ?? terminal?.output ?? process.stderr;
        try {
          output.write(promptText(request, options.width));
        } catch {
          // a prompt that cannot be shown is still read: the operator may answer blind
        }
        const stop = readLine(input, (line) => {
          terminal?.close();
          subscriber.next(parseCliAnswer(line)); // null at end of input: unanswerable
          subscriber.complete();
        });
        return () => {
          stop();
          terminal?.close();
        };
      }),
  });
}

/**
 * An answer line as a decision: `y`/`yes` → yes, `a`/`always` → always, any other line → no;
 * no line at all (end of input, a read error) → `null`, unanswerable: no operator decided.
 *
 * @example
 * ```ts
 * parseCliAnswer(' Yes '); // 'yes'
 * parseCliAnswer(null);    // null: denied by policy, not by the operator
 * ```
 */
export function parseCliAnswer(line: string | null): 'yes' | 'no' | 'always' | null {
  if (line === null) return null;
  const word = line.trim().toLowerCase();
  if (word === 'y' || word === 'yes') return 'yes';
  if (word === 'a' || word === 'always') return 'always';
  return 'no';
}

/**
 * What the operator reads: the tool's full arguments, then the question with the summary.
 *
 * @example
 * ```ts
 * promptText({ requestId: 'r1', toolName: 'shell', arguments: { cmd: 'ls' }, argumentsSummary: 'cmd: ls', channel: 'cli' });
 * // '\nshell will receive:\n  cmd: ls\nApprove tool call shell (cmd: ls)?\n[y]es / [n]o / [a]lways: '
 * ```
 */
export function promptText(request: ApprovalRequest, width?: number): string {
  const name = shownToolName(request.toolName);
  const full = formatFullArgs(request.arguments, { width });
  const args = request.argumentsSummary ? ` (${request.argumentsSummary})` : '';
  return `\n${name} will receive:\n${full}\nApprove tool call ${name}${args}?\n[y]es / [n]o / [a]lways: `;
}

interface Terminal {
  readonly input: LineInput;
  readonly output: { write(text: string): unknown };
  close(): void;
}

/** The controlling terminal, opened for one question; undefined when the process has none. */
function openTerminal(): Terminal | undefined {
  let readFd: number | undefined;
  let writeFd: number | undefined;
  try {
    readFd = openSync('/dev/tty', 'r');
    if (!isatty(readFd)) throw new Error('not a terminal');
    writeFd = openSync('/dev/tty', 'w');
  } catch {
    if (readFd !== undefined) closeSync(readFd);
    return undefined;
  }
  const input = new ReadStream(readFd);
  const out = writeFd;
  let closed = false;
  return {
    input,
    output: { write: (text: string) => writeSync(out, text) },
    close: () => {
      if (closed) return;
      closed = true;
      input.destroy();
      closeSync(out);
    },
  };
}
