/** The longest answer line read; a longer line is taken as an empty answer (no). */
const MAX_LINE_BYTES = 4096;

/**
 * The part of a Node readable stream (`process.stdin`, a tty's `ReadStream`) that `readLine`
 * uses, typed structurally: the package's types need no `@types/node`.
 */
export interface LineInput {
  readonly readableEnded?: boolean;
  readonly destroyed?: boolean;
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  once(event: 'end' | 'close' | 'error', listener: () => void): unknown;
  removeListener(event: 'data' | 'end' | 'close' | 'error', listener: (chunk: Uint8Array | string) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  unshift(chunk: Uint8Array | string): void;
}

/**
 * Reads one line from a stream, then pauses it and puts back whatever arrived after the line
 * (so answers typed ahead or piped together are not lost, and nothing is read between
 * questions). Calls `done(null)` on end of input, close or a read error. Returns a function
 * that stops reading without calling `done`; once the line is read (or `done` called) it does
 * nothing, so a question that starts from inside `done` keeps the stream flowing.
 *
 * @example
 * ```ts
 * const stop = readLine(process.stdin, (line) => console.log(line ?? '(eof)'));
 * ```
 */
export function readLine(input: LineInput, done: (line: string | null) => void): () => void {
  if (input.readableEnded || input.destroyed) {
    done(null);
    return () => {};
  }
  let finished = false;
  let chunks: Buffer[] = [];
  let size = 0;
  // Stops once: after an answer the caller's teardown calls this again, and by then the next
  // question may already have resumed the same stream (a second pause would stall it).
  const stop = (): void => {
    if (finished) return;
    finished = true;
    input.removeListener('data', onData);
    input.removeListener('end', onEnd);
    input.removeListener('close', onEnd);
    input.removeListener('error', onEnd);
    input.pause();
  };
  const finish = (line: string | null): void => {
    if (finished) return;
    stop();
    done(line);
  };
  function onData(chunk: Uint8Array | string): void {
    if (finished) return;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const newline = bytes.indexOf(10);
    if (newline === -1) {
      chunks.push(bytes);
      size += bytes.length;
      if (size > MAX_LINE_BYTES) finish('');
      return;
    }
    const line = Buffer.concat([...chunks, bytes.subarray(0, newline)]).toString('utf8').replace(/\r$/, '');
    chunks = [];
    const rest = bytes.subarray(newline + 1);
    stop();
    if (rest.length > 0) input.unshift(typeof chunk === 'string' ? rest.toString('utf8') : rest);
    done(line);
  }
  function onEnd(): void {
    finish(null);
  }
  input.on('data', onData);
  input.once('end', onEnd);
  input.once('close', onEnd);
  input.once('error', onEnd);
  input.resume();
  return stop;
}
