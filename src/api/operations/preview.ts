// The exact request dpx is about to send, as a person should see it: nothing hidden but the token.
import { toCurl, type TokenReference } from '../security/curl.js';
import type { PreparedRequest } from '../hal/operation.js';
import { redactHeaders } from '../security/redact.js';
import { bodyLines } from '../security/safety.js';

export interface RequestPreview {
  method: string;
  url: string;
  /** As sent, Authorization shown as `Bearer ***`. */
  headers: Record<string, string>;
  /** The OU header's value, when the request carries one. */
  ou?: string;
  body?: string;
  /** The request as text, one line per part, ready to print. */
  lines: string[];
  /** A curl command with the token as $DPX_TOKEN. */
  curl: string;
}

export interface PreviewContext {
  /** True when the session will add a bearer token: the preview then shows it, masked. */
  authenticated?: boolean;
  /** The name of the request's OU, when dpx knows it. */
  ouName?: string;
  /** Where the token came from: the curl reads it from there. */
  tokenRef?: TokenReference;
}

export function previewRequest(prepared: PreparedRequest, context: PreviewContext = {}): RequestPreview {
  // The session adds Authorization when sending; a prepared request never holds the token.
  const headers = {
    ...(context.authenticated === false ? {} : { authorization: 'Bearer ***' }),
    ...redactHeaders(prepared.headers),
  };
  const lines = [
    `${prepared.method.toUpperCase()} ${prepared.url}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  lines.push(
    `OU: ${prepared.ou ? `${context.ouName ? `${context.ouName} (${prepared.ou})` : prepared.ou}` : "(none: the token's whole scope)"}`,
  );
  if (prepared.body !== undefined) lines.push('', ...bodyLines(prepared.body));
  const preview: RequestPreview = {
    method: prepared.method.toUpperCase(),
    url: prepared.url,
    headers,
    lines,
    curl: toCurl(prepared, context.tokenRef),
  };
  if (prepared.ou) preview.ou = prepared.ou;
  if (prepared.body !== undefined) preview.body = prepared.body;
  return preview;
}
