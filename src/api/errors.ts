// Every failure dpx reports is one of these: a one-line message that says what happened, a hint that
// says what to do, and the exit code the command line uses for its family. Both are made visible: they
// often quote the server (an error body, a name), and are printed wherever a failure is shown.

import { visible } from './visible.js';

export type ErrorKind = 'api' | 'transport' | 'protocol' | 'safety' | 'usage';

const EXIT_CODES: Record<ErrorKind, number> = { api: 1, usage: 2, transport: 3, protocol: 3, safety: 4 };

export class DpxError extends Error {
  readonly kind: ErrorKind;
  readonly hint: string;

  constructor(kind: ErrorKind, message: string, hint: string, options?: { cause?: unknown }) {
    super(visible(visibleLineBreaks(message)), options);
    this.name = 'DpxError';
    this.kind = kind;
    this.hint = visible(visibleLineBreaks(hint));
  }

  get exitCode(): number {
    return EXIT_CODES[this.kind];
  }
}

export interface ApiErrorEntry {
  code: string;
  message: string;
}

/** The server answered with an error status; `errors` holds its `errors` envelope when it sent one. */
export class ApiError extends DpxError {
  readonly status: number;
  readonly errors: ApiErrorEntry[];
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, errors: ApiErrorEntry[], summary: string, hint: string, retryAfterSeconds?: number) {
    super('api', summary, hint);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The request did not get an answer: refused, reset, timed out, DNS. */
export class TransportError extends DpxError {
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super('transport', message, hint, options);
    this.name = 'TransportError';
  }
}

/**
 * The request was cancelled or the run interrupted before an answer came: nothing is wrong with the
 * address, so callers tell it by its class, never by its words.
 */
export class CancelledError extends TransportError {
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super(message, hint, options);
    this.name = 'CancelledError';
  }
}

/** The proxy on the way could not be reached, or refused: the proxy's failure, not the control plane's. */
export class ProxyError extends TransportError {
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super(message, hint, options);
    this.name = 'ProxyError';
  }
}

/** The server answered, but not in a shape dpx can read: not JSON, not an envelope, a link cycle. */
export class ProtocolError extends DpxError {
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super('protocol', message, hint, options);
    this.name = 'ProtocolError';
  }
}

/** dpx refused to do something unsafe: a write in read-only mode, the token towards another origin. */
export class SafetyError extends DpxError {
  constructor(message: string, hint: string) {
    super('safety', message, hint);
    this.name = 'SafetyError';
  }
}

/** The user asked for something that cannot be done as asked: unknown resource, missing variable. */
export class UsageError extends DpxError {
  /** Lines that belong under the message, one choice each (the units a name could mean). */
  readonly details: readonly string[];

  constructor(message: string, hint: string, details: readonly string[] = []) {
    super('usage', message, hint);
    this.name = 'UsageError';
    this.details = details.map(visibleLineBreaks);
  }
}

/**
 * The same failure with another hint, for a caller that knows better what to do about it (a failure to
 * read the discovery index: check the base URL). Its class, kind, status and cause stay.
 */
export function withHint<E extends DpxError>(error: E, hint: string): E {
  const copy = Object.create(Object.getPrototypeOf(error) as object) as E;
  Object.assign(copy, error);
  Object.defineProperties(copy, {
    message: { value: error.message, writable: true, configurable: true },
    stack: { value: error.stack, writable: true, configurable: true },
    cause: { value: error.cause, writable: true, configurable: true },
    hint: { value: visible(visibleLineBreaks(hint)), enumerable: true },
  });
  return copy;
}

/** Turns anything thrown into a DpxError, so no caller ever has to show a raw stack trace. */
export function toDpxError(error: unknown): DpxError {
  if (error instanceof DpxError) return error;
  if (error instanceof SyntaxError) {
    return new ProtocolError(
      `unreadable JSON: ${firstLine(error.message)}`,
      'the server sent a body that is not valid JSON',
    );
  }
  const hint = 'this is unexpected; run again, and report it if it repeats';
  if (error instanceof Error)
    return new DpxError('transport', firstLine(messageOf(error)) || error.name, hint, { cause: error });
  return new DpxError('transport', firstLine(messageOf(error)) || 'something was thrown that is not an error', hint);
}

/**
 * The message of anything thrown, as text, without ever throwing itself: String() throws for an object
 * with no prototype, or whose own `toString` is not a function.
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error && typeof error.message === 'string') return error.message;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}

const LINE_BREAK = /[\r\n\u2028\u2029]/g;
const ESCAPED_BREAK: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/**
 * Messages and hints are one line each, whatever names they quote: a resource, an operation id or a
 * value from the server or the user may hold a line break, which is shown escaped rather than broken.
 */
function visibleLineBreaks(text: string): string {
  return text.replace(LINE_BREAK, (character) => ESCAPED_BREAK[character] ?? ' ');
}

function firstLine(text: string): string {
  return (text.split(/[\r\n\u2028\u2029]/)[0] ?? '').trim();
}
