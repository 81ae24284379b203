// How a failure reads on stderr: `error:` and `hint:` lines (an API error adds its status and one line per
// entry of its `errors` envelope), never a stack trace, and never a token.

import { ApiError, toDpxError } from '../api/errors.js';
import { redactText } from '../api/redact.js';

export function formatError(thrown: unknown, secrets: string[]): string {
  const error = toDpxError(thrown);
  const lines: string[] = [];
  if (error instanceof ApiError) {
    lines.push(`error: ${error.message}${error.message.includes(String(error.status)) ? '' : ` (HTTP ${error.status})`}`);
    for (const entry of error.errors) lines.push(`  [${entry.code}] ${entry.message}`);
  } else {
    lines.push(`error: ${error.message}`);
  }
  if (error.hint) lines.push(`hint: ${error.hint}`);
  return redactText(`${lines.join('\n')}\n`, secrets);
}

export function formatWarning(message: string, secrets: string[]): string {
  return redactText(`warning: ${message}\n`, secrets);
}
