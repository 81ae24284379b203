// A prepared request as a curl command a person can paste into a POSIX shell. The token is written as
// "$DPX_TOKEN", so the command works where the token is in the environment and never contains it.

import type { PreparedRequest } from '../hal/operation.js';
import { redactHeaders } from './redact.js';

/** The session adds the bearer token itself, so a request without an Authorization header still gets one. */
export function toCurl(request: PreparedRequest): string {
  const others = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
  const lines = [
    `curl -X ${shellQuote(request.method.toUpperCase())} ${shellQuote(request.url)}`,
    // Double quotes here, and only here, so that the shell expands the variable.
    '-H "Authorization: Bearer $DPX_TOKEN"',
    ...Object.entries(redactHeaders(others)).map(([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`),
  ];
  if (request.body !== undefined) lines.push(`--data-raw ${shellQuote(request.body)}`);
  return lines.join(' \\\n  ');
}

/** Single quotes keep everything literal; a single quote itself is closed, escaped and reopened. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
