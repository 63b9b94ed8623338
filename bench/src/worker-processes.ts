import { fork, type ChildProcess } from 'node:child_process';

/** Worker processes of a bench and their IPC messages, as durable.ts and engines/engines.ts use them. */
export interface WorkerProcesses<M extends { readonly type: string }, P> {
  readonly children: ChildProcess[];
  /** Adds a listener for every worker's messages; returns what removes it. */
  listen(listener: (message: M) => void): () => void;
  /** One message of `type` from every worker (after sending each `request`, if given); rejects as `failed` does. */
  fromAll<T extends M['type']>(type: T, request?: P): Promise<Extract<M, { type: T }>[]>;
  /** Where a worker that exits with an error (or that `failure` names failed) is reported from now on: the promise a caller waits on. */
  failed(reject: (error: Error) => void): void;
}

/**
 * Forks `count` workers of `script` through tsx (argv from `argsFor(index)`), passes their IPC
 * messages to the listeners, and reports a worker that exits with an error, or whose message
 * `failure` reads as one, to the latest `failed` callback.
 *
 * @example
 * ```ts
 * const workers = forkWorkers<WorkerMessage, ParentMessage>(WORKER, 4, (w) => [url, String(w)], 'durable bench');
 * await workers.fromAll('ready');
 * ```
 */
export function forkWorkers<M extends { readonly type: string }, P>(
  script: string,
  count: number,
  argsFor: (index: number) => string[],
  label: string,
  failure: (message: M) => string | undefined = () => undefined,
): WorkerProcesses<M, P> {
  const children: ChildProcess[] = [];
  const listeners = new Set<(message: M) => void>();
  let broken: ((error: Error) => void) | undefined;
  for (let w = 0; w < count; w++) {
    const child = fork(script, argsFor(w), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.on('message', (message: M) => {
      const failed = failure(message);
      if (failed !== undefined) broken?.(new Error(`${label}: a worker failed: ${failed}`));
      listeners.forEach((l) => l(message));
    });
    child.once('exit', (code) => code !== 0 && broken?.(new Error(`${label}: a worker exited (${code})`)));
    children.push(child);
  }
  const listen = (listener: (message: M) => void) => (listeners.add(listener), () => void listeners.delete(listener));
  return {
    children,
    listen,
    fromAll: <T extends M['type']>(type: T, request?: P) =>
      new Promise<Extract<M, { type: T }>[]>((resolve, reject) => {
        const got: Extract<M, { type: T }>[] = [];
        const stop = listen((message) => {
          if (message.type !== type) return;
          got.push(message as Extract<M, { type: T }>);
          if (got.length === children.length) (stop(), resolve(got));
        });
        broken = reject;
        if (request) for (const child of children) child.send(request as object);
      }),
    failed(reject) {
      broken = reject;
    },
  };
}
