// A non-2xx answer turned into an ApiError whose message fits one line and whose hint says what to do.
// A body that is not the `errors` envelope (a proxy's HTML page) is summarised, never dumped.
import { isObject } from '../json.js';
import { ApiError, type ApiErrorEntry } from '../errors.js';
import { visible } from '../visible.js';

export interface FailedResponse {
  status: number;
  statusText: string;
  contentType: string;
  text: string;
  /** The parsed body when it was JSON. */
  body: unknown;
  retryAfterSeconds: number | undefined;
}

export interface FailureContext {
  /** The versions the index lists for the resource asked for, newest first (for a 406). */
  supportedVersions?: string[];
  resource?: string;
  version?: string;
  /** What is known to be wrong with the token, if anything (for a 401). */
  tokenProblem?: string;
}

/** The `errors` envelope's entries, or undefined when the body is not one. */
export function errorEntries(body: unknown): ApiErrorEntry[] | undefined {
  if (!isObject(body) || !Array.isArray(body['errors'])) return undefined;
  const entries: ApiErrorEntry[] = [];
  for (const entry of body['errors']) {
    if (!isObject(entry)) continue;
    const code = entry['error_code'] ?? entry['code'];
    const message = entry['error_message'] ?? entry['message'];
    entries.push({ code: entryText(code), message: entryText(message) });
  }
  return entries.length > 0 ? entries : undefined;
}

/**
 * A code or message as one line, nothing in it a terminal obeys; one that is not a string is shown as JSON
 * (String() throws for `{"toString":0}`).
 */
function entryText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return visible(oneLine(typeof value === 'string' ? value : JSON.stringify(value) ?? ''));
}

export function apiErrorFor(response: FailedResponse, context: FailureContext = {}): ApiError {
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const entries = errorEntries(response.body);
  const detail = entries
    ? entries.map((entry) => (entry.code ? `[${entry.code}] ${entry.message}` : entry.message)).join('; ')
    : summariseBody(response.text, response.contentType);
  const summary = detail ? `${status}: ${detail}` : status;
  return new ApiError(response.status, entries ?? [], summary, hintFor(response, context), response.retryAfterSeconds);
}

/** One line about a body that is not the error envelope: its content type and the first words of its title. */
export function summariseBody(text: string, contentType: string): string {
  const type = (contentType.split(';')[0] ?? '').trim() || 'no content type';
  if (text.trim() === '') return `empty body (${type})`;
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const words = title !== undefined ? firstWords(stripTags(title)) : /html|xml/i.test(type) ? '' : firstWords(text.split('\n')[0] ?? '');
  return words ? `${type} body: "${words}"` : `${type} body of ${text.length} characters`;
}

function hintFor(response: FailedResponse, context: FailureContext): string {
  switch (response.status) {
    case 400:
      return 'the server refused the request as sent: check the variables, query and filter';
    case 401:
      return context.tokenProblem
        ? `${context.tokenProblem}; get a new token from this control plane`
        : 'the token is missing, expired or invalid, or was issued by another control plane; `dpx whoami` shows what it says';
    case 403:
      return 'the token is not allowed to do this, or the organizational unit is outside its reach';
    case 404:
      return 'nothing at this address: check the id, and whether it lies outside the selected organizational unit';
    case 406: {
      const what = context.resource ? `${context.resource}${context.version ? ` ${context.version}` : ''}` : 'this version';
      return context.supportedVersions && context.supportedVersions.length > 0
        ? `the server does not serve ${what}; the index lists ${context.supportedVersions.join(', ')} (use --version)`
        : `the server does not serve ${what}; pick another version`;
    }
    case 409:
    case 412:
    case 422:
      return 'the server rejected the change: check the body against the operation, and the record\'s current state';
    case 429:
      return response.retryAfterSeconds !== undefined
        ? `rate limited: wait ${Math.ceil(response.retryAfterSeconds)} s (Retry-After) and try again`
        : 'rate limited: wait a moment and try again';
    default:
      return response.status >= 500
        ? 'the server or a proxy in front of it failed; try again later (reads are retried automatically)'
        : 'see the server\'s message';
  }
}

function stripTags(text: string): string {
  return text.replace(/<[^>]*>/g, ' ');
}

function firstWords(text: string, count = 8, maxLength = 60): string {
  const words = oneLine(text).split(' ').filter(Boolean).slice(0, count).join(' ');
  return words.length > maxLength ? `${words.slice(0, maxLength - 1).trimEnd()}…` : words;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
