// The streams a command talks to. runCli takes them as arguments so tests run commands in-process.

import { once } from 'node:events';

export type OutputStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
export type InputStream = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

export interface CliIO {
  stdout: OutputStream;
  stderr: OutputStream;
  env: NodeJS.ProcessEnv;
  stdin?: InputStream;
  /** Ends long-running commands (`dpx demo`); the process wires it to SIGINT/SIGTERM. */
  signal?: AbortSignal;
}

/** The reader of stdout went away (`dpx list … | head`): stop producing, quietly. */
export class OutputClosed extends Error {
  constructor() {
    super('stdout was closed by its reader');
    this.name = 'OutputClosed';
  }
}

/**
 * Writes to stdout with backpressure: waits for 'drain' when the reader is slower than the pages come,
 * so memory does not grow with the output, and turns EPIPE into OutputClosed. A command whose exit code
 * reports its work (`replay --exit-code`: 5 for differences) asks to `discard` instead: once the reader
 * is gone, writes do nothing and the work goes on to its end.
 */
export class DataWriter {
  private closed = false;
  private readonly onError = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') this.closed = true;
  };

  constructor(
    private readonly stream: OutputStream,
    private readonly options: { afterClose?: 'throw' | 'discard' } = {},
  ) {
    stream.on('error', this.onError);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async write(text: string | Uint8Array): Promise<void> {
    if (this.closed && this.options.afterClose === 'discard') return;
    if (this.closed) throw new OutputClosed();
    if (text.length === 0) return;
    if (this.stream.write(text)) return;
    const settled = new AbortController();
    const { signal } = settled;
    try {
      await Promise.race(
        ['drain', 'close', 'error'].map((event) => once(this.stream, event, { signal }).catch(() => undefined)),
      );
    } finally {
      settled.abort();
    }
    if (this.closed && this.options.afterClose !== 'discard') throw new OutputClosed();
  }

  /** Stops listening for errors; an EPIPE after this is still swallowed by a no-op listener. */
  release(): void {
    this.stream.off('error', this.onError);
    if (this.closed) this.stream.on('error', () => undefined);
  }
}

export function isInteractive(io: CliIO): boolean {
  return io.stdin?.isTTY === true && io.stderr.isTTY === true;
}
