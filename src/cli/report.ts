// How a failure reads on stderr: `error:` and `hint:` lines (an API error adds its status and one line per
// entry of its `errors` envelope), never a stack trace, and never a token.

import { ApiError, toDpxError, UsageError } from '../api/errors.js';
import { redactText } from '../api/security/redact.js';

export function formatError(thrown: unknown, secrets: string[]): string {
  const error = toDpxError(thrown);
  const lines: string[] = [];
  if (error instanceof ApiError && error.errors.length > 0) {
    // The entries get a line each below, so the headline keeps only the status part of the message.
    const status = error.message.startsWith(`HTTP ${error.status}`) ? error.message.split(':')[0] : `HTTP ${error.status}`;
    lines.push(`error: ${status}`);
    for (const entry of error.errors) lines.push(`  [${entry.code}] ${entry.message}`);
  } else if (error instanceof ApiError && !error.message.includes(String(error.status))) {
    lines.push(`error: ${error.message} (HTTP ${error.status})`);
  } else {
    lines.push(`error: ${error.message}`);
  }
  if (error instanceof UsageError) for (const detail of error.details) lines.push(`  ${detail}`);
  if (error.hint) lines.push(`hint: ${error.hint}`);
  return redactText(`${lines.join('\n')}\n`, secrets);
}

export function formatWarning(message: string, secrets: string[]): string {
  return redactText(`warning: ${message}\n`, secrets);
}
