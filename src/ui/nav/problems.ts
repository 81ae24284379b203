// Failures and warnings as the panel under a screen shows them.
import { ApiError, toDpxError } from '../../api/errors.js';
import type { ErrorInfo } from '../error-info.js';

export function errorInfo(error: unknown): ErrorInfo {
  const e = toDpxError(error);
  if (e instanceof ApiError) {
    return {
      title: e.message,
      status: e.status,
      lines: e.errors.map((x) => `[${x.code}] ${x.message}`),
      ...(e.hint ? { hint: e.hint } : {}),
      tone: 'error',
    };
  }
  return { title: e.message, lines: [], ...(e.hint ? { hint: e.hint } : {}), tone: 'error' };
}

export function warningInfo(warnings: string[]): ErrorInfo | undefined {
  if (!warnings.length) return undefined;
  return {
    title: `${warnings.length} warning${warnings.length > 1 ? 's' : ''} about the response`,
    lines: warnings,
    tone: 'warning',
  };
}

/** "cannot do X: the reason — the hint", for a one-line notice. */
export function noticeOf(what: string, error: unknown): string {
  const info = errorInfo(error);
  return `${what}: ${info.title}${info.hint ? ` — ${info.hint}` : ''}`;
}
