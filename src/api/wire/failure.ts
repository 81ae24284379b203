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
  /** What the request carried, so that a 400's hint names the part the server refused. */
  sent?: SentParts;
}

/** The parts of a request a 400 may be about. */
export interface SentParts {
  operationId?: string;
  body: boolean;
  /** The unit header's value, when one went along. */
  ou?: string;
  /** The query parameters that hold the filter, the page size and the page, when the request had them. */
  filter?: string;
  pageSize?: string;
  page?: string;
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
  return visible(oneLine(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')));
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
  const words =
    title !== undefined
      ? firstWords(stripTags(title))
      : /html|xml/i.test(type)
        ? ''
        : firstWords(text.split('\n')[0] ?? '');
  return words ? `${type} body: "${words}"` : `${type} body of ${text.length} characters`;
}

function hintFor(response: FailedResponse, context: FailureContext): string {
  switch (response.status) {
    case 400:
      return badRequestHint(response, context);
    case 401:
      return context.tokenProblem
        ? `${context.tokenProblem}; get a new token from this control plane`
        : 'the token is missing, expired or invalid, or was issued by another control plane; `dpx whoami` shows what it says';
    case 403:
      return 'the token is not allowed to do this, or the organizational unit is outside its reach';
    case 404:
      return 'nothing at this address: check the id, and whether it lies outside the selected organizational unit';
    case 406: {
      const what = context.resource
        ? `${context.resource}${context.version ? ` ${context.version}` : ''}`
        : 'this version';
      return context.supportedVersions && context.supportedVersions.length > 0
        ? `the server does not serve ${what}; the index lists ${context.supportedVersions.join(', ')} (use --version)`
        : `the server does not serve ${what}; pick another version`;
    }
    case 409:
    case 412:
    case 422:
      return "the server rejected the change: check the body against the operation, and the record's current state";
    case 429:
      return response.retryAfterSeconds !== undefined
        ? `rate limited: wait ${Math.ceil(response.retryAfterSeconds)} s (Retry-After) and try again`
        : 'rate limited: wait a moment and try again';
    default:
      return response.status >= 500
        ? 'the server or a proxy in front of it failed; try again later (reads are retried automatically)'
        : "see the server's message";
  }
}

/**
 * A 400's hint fits its cause: the body, the unit, the filter or the page size. The server's error codes
 * say which first (`invalid_filter`); then the words of its messages, once the names in them are taken
 * out (a list of known fields holds `organizational_unit_id`, which is no word about the unit); failing
 * both, the one part of those the request carried.
 */
function badRequestHint(response: FailedResponse, context: FailureContext): string {
  const sent = context.sent;
  const entries = errorEntries(response.body) ?? [];
  const help =
    context.resource && sent?.operationId ? `dpx call ${context.resource} ${sent.operationId} --help` : undefined;
  const hints: Record<Cause, () => string> = {
    body: () =>
      `the body does not fit the operation${help ? `: \`${help}\` lists its fields, which are required, and their allowed values` : ': check its fields and their values'}`,
    unit: () =>
      `the organizational unit${sent?.ou ? ` sent (${sent.ou})` : ''} was refused: give one unit's id (the unit list shows them), or leave the unit out`,
    filter: () =>
      `the filter was refused: it is a JSON object such as {"name":{"$contains":"a"}}, with the operators $eq $neq $in $contains $begins_with $gt $gte $lt $lte${help ? `; \`${help}\` lists the fields` : ''}`,
    pageSize: () => 'the page size was refused: ask for fewer records per page (--page-size)',
    page: () => 'the page was refused: start from the first page, and move with the next and prev links',
  };
  const byCode = causeOf(entries.map((entry) => entry.code.replace(/[_.-]+/g, ' ')).join(' '), sent);
  if (byCode) return hints[byCode]();
  const messages = entries.length > 0 ? entries.map((entry) => entry.message).join(' ') : response.text.slice(0, 500);
  const byWords = causeOf(withoutNames(messages), sent);
  if (byWords) return hints[byWords]();
  if (sent?.body) return hints.body();
  if (sent?.filter !== undefined) return hints.filter();
  return 'the server refused the request as sent: check the variables and the query';
}

type Cause = 'body' | 'unit' | 'filter' | 'pageSize' | 'page';

/** The part of the request that plain words (a code with its underscores as spaces, or a message) name. */
function causeOf(text: string, sent: SentParts | undefined): Cause | undefined {
  const words = text.toLowerCase();
  if (/filter/.test(words)) return 'filter';
  if (/page.?size|per.?page|\blimit\b/.test(words)) return 'pageSize';
  if (/organi[sz]ational|\bunit\b|\bou\b|tenant/.test(words) && !/body/.test(words)) return 'unit';
  if (/\bpage\b|\bstart\b/.test(words) && (sent?.page !== undefined || !sent?.body)) return 'page';
  if (/body|json|field|propert/.test(words) && sent?.body) return 'body';
  return undefined;
}

/**
 * A message without the names it quotes: quoted text, identifiers (`organizational_unit_id`,
 * `initiated_by.email`) and the lists they come in, so that only the server's own words are read.
 */
function withoutNames(message: string): string {
  return message
    .replace(/'[^']*'|"[^"]*"|`[^`]*`/g, ' ')
    .replace(/[\w$-]+(?:\s*,\s*[\w.$-]+){2,}/g, ' ')
    .replace(/\b\w+[_.]\w[\w.]*/g, ' ');
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
