// One attempt's way to be given up on (its timeout, or the caller cancelling) without handing fetch an
// AbortSignal. Per attempt, a signal meant an AbortController, and undici following it with a listener,
// a WeakRef and a FinalizationRegistry entry: 5–6 % of a count matrix's CPU, measured in one process
// with alternating builds (and 0.79–0.83× → 0.82–0.92× the bare loop in three interleaved bench runs
// each). Instead fetch is given a dispatcher that passes the request on to the global one, keeping the
// abort function undici's dispatch protocol hands each request once it has a connection.

/** The part of undici's dispatch handler protocol used here. */
interface DispatchHandler {
  onConnect?: (abort: (reason: Error) => void, ...rest: unknown[]) => void;
}

interface Dispatcher {
  dispatch(options: unknown, handler: DispatchHandler): boolean;
}

/** Where undici (the copy inside Node that runs fetch included) keeps the dispatcher fetch uses by default. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

export class Cancellable {
  private abortRequest: ((reason: Error) => void) | undefined;
  private reason: Error | undefined;
  private failWaiting: ((reason: Error) => void) | undefined;

  private readonly relay: Dispatcher = {
    dispatch: (options, handler) => {
      const onConnect = handler.onConnect;
      const cancellable = this;
      handler.onConnect = function (abort, ...rest) {
        cancellable.abortRequest = abort;
        onConnect?.call(this, abort, ...rest);
        // Cancelled while it waited for a connection: it goes no further.
        if (cancellable.reason) abort(cancellable.reason);
      };
      return (globalThis as Record<symbol, Dispatcher>)[GLOBAL_DISPATCHER]!.dispatch(options, handler);
    },
  };

  /** For fetch's `dispatcher` option: undici's Dispatcher type has twenty more methods, fetch calls `dispatch`. */
  get dispatcher(): NonNullable<RequestInit['dispatcher']> {
    return this.relay as unknown as NonNullable<RequestInit['dispatcher']>;
  }

  /**
   * `sending` (the fetch), or a failure with the reason as soon as the attempt is cancelled while it still
   * waits for a connection: a host that never accepts one is given up on at the timeout, not at undici's
   * own connect timeout. The request itself is aborted once it connects.
   */
  whileConnecting<T>(sending: Promise<T>): Promise<T> {
    if (this.reason) {
      // It is aborted as it connects; that failure is this one, already reported.
      sending.catch(() => undefined);
      return Promise.reject(this.reason);
    }
    return Promise.race([sending, new Promise<never>((_resolve, reject) => { this.failWaiting = reject; })]);
  }

  /** Aborts the request; its fetch or its body read then fails with `reason`. */
  cancel(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    if (this.abortRequest) this.abortRequest(reason);
    else this.failWaiting?.(reason);
  }
}
