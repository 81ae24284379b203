// A prepared request as a curl command a person can paste into a POSIX shell. The command reads the
// token from where dpx read it — `$(cat FILE)`, a variable that dpx found set, or a command that prints
// it — so it runs as pasted and never contains the token itself.

import type { PreparedRequest } from '../hal/operation.js';
import { redactHeaders } from './redact.js';

/** Where the token came from, so that a copied command can read it from there too. */
export type TokenReference =
  | { kind: 'file'; path: string }
  | { kind: 'env'; name: string }
  | { kind: 'command'; command: string };

/** The shell words that expand to the token: `$(cat '/path')`, `$NAME`, `$(command)`. */
export function tokenExpansion(reference: TokenReference | undefined): string {
  if (!reference) return '$DPX_TOKEN';
  switch (reference.kind) {
    case 'file':
      return `$(cat ${shellQuote(reference.path)})`;
    case 'env':
      return /^[A-Za-z_][A-Za-z0-9_]*$/.test(reference.name) ? `$${reference.name}` : '$DPX_TOKEN';
    case 'command':
      return `$(${reference.command})`;
  }
}

/** The session adds the bearer token itself, so a request without an Authorization header still gets one. */
export function toCurl(request: PreparedRequest, token?: TokenReference): string {
  const others = Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'authorization'),
  );
  const lines = [
    `curl -X ${shellQuote(request.method.toUpperCase())} ${shellQuote(request.url)}`,
    // Double quotes here, and only here, so that the shell expands the token's source.
    `-H "Authorization: Bearer ${tokenExpansion(token)}"`,
    ...Object.entries(redactHeaders(others)).map(([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`),
  ];
  if (request.body !== undefined) lines.push(`--data-raw ${shellQuote(request.body)}`);
  return lines.join(' \\\n  ');
}

/** Where the copied command reads the token from, in words: `the file ~/x.token`, `$DPX_TOKEN`. */
export function describeTokenReference(reference: TokenReference | undefined): string {
  if (!reference) return '$DPX_TOKEN (export it first)';
  if (reference.kind === 'file') return `the file ${reference.path}`;
  if (reference.kind === 'env') return `$${reference.name}`;
  return `the command ${reference.command}`;
}

/** Single quotes keep everything literal; a single quote itself is closed, escaped and reopened. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
