// How a failure reads on stderr: `error:` and `hint:` lines (an API error adds its status and one line per
// entry of its `errors` envelope), never a stack trace, never a token, and nothing a terminal obeys: a
// message may quote the server (an error body, a name), so every line is made visible.

import { ApiError, toDpxError, UsageError } from '../api/errors.js';
import { redactText } from '../api/security/redact.js';
import { oneLine, visible } from '../text/cells.js';

export function formatError(thrown: unknown, secrets: string[]): string {
  const error = toDpxError(thrown);
  const lines: string[] = [];
  if (error instanceof ApiError && error.errors.length > 0) {
    // The entries get a line each below, so the headline keeps only the status part of the message.
    const status = error.message.startsWith(`HTTP ${error.status}`)
      ? error.message.split(':')[0]
      : `HTTP ${error.status}`;
    lines.push(`error: ${oneLine(status ?? '')}`);
    for (const entry of error.errors) lines.push(`  [${oneLine(entry.code)}] ${oneLine(entry.message)}`);
  } else if (error instanceof ApiError && !error.message.includes(String(error.status))) {
    lines.push(`error: ${oneLine(error.message)} (HTTP ${error.status})`);
  } else {
    lines.push(`error: ${oneLine(error.message)}`);
  }
  if (error instanceof UsageError) for (const detail of error.details) lines.push(`  ${oneLine(detail)}`);
  if (error.hint) lines.push(`hint: ${oneLine(error.hint)}`);
  return redactText(`${lines.join('\n')}\n`, secrets);
}

export function formatWarning(message: string, secrets: string[]): string {
  return redactText(`warning: ${visible(message, { lines: true })}\n`, secrets);
}
