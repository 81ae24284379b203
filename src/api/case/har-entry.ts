// One exchange as a HAR 1.2 entry, as a case keeps it: every secret masked (headers that authenticate by
// their name, the token and its parts wherever it appears, a URL's user and password), and the command
// line of a case's page masked the same way.

import type { Exchange, ExchangeResponse } from '../exchange.js';
import { redactHeaders, redactText, redactValue } from '../security/redact.js';

/** How a trail marks a body it kept only the start of; the reader will not answer from such a body. */
export const TRUNCATED_COMMENT = 'body truncated by dpx';
const HTTP_VERSION = 'HTTP/1.1';

interface HarHeader {
  name: string;
  value: string;
}

/** Option values that name a secret by their name (`--var password=…`) are masked whole, besides every secret. */
const SECRET_NAME = /pass|secret|token|api-?key|credential/i;

export function maskArguments(argv: string[], secrets: string[]): string[] {
  return argv.map((arg) => {
    const named = /^([^=\s]+)=/.exec(arg);
    if (named && SECRET_NAME.test(named[1]!)) return `${named[1]}=***`;
    return maskUrl(redactText(arg, secrets), secrets).url;
  });
}

/** A URL's user and password masked (`https://***@host/`), and the password among the secrets. */
export function maskUrl(text: string, secrets: string[]): { url: string; secrets: string[] } {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text)) return { url: text, secrets };
  try {
    const url = new URL(text);
    const found = [decodeURIComponent(url.password), decodeURIComponent(url.username)].filter(
      (part) => part.length > 0,
    );
    url.username = '';
    url.password = '';
    return { url: url.href.replace('://', '://***@'), secrets: [...secrets, ...found] };
  } catch {
    return { url: text, secrets };
  }
}

/** An argument as a shell would need it to be the same word. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function harEntry(exchange: Exchange, known: string[], pageref: string | undefined): Record<string, unknown> {
  const { request, response, error } = exchange;
  const { url, secrets } = maskUrl(request.url, known);
  const time = Math.max(0, exchange.durationMs);
  const requestHeaders = harHeaders(request.headers, secrets);
  const entry: Record<string, unknown> = {
    ...(pageref === undefined ? {} : { pageref }),
    startedDateTime: exchange.startedAt.toISOString(),
    time,
    request: {
      method: request.method,
      url,
      httpVersion: HTTP_VERSION,
      headers: requestHeaders,
      queryString: queryString(request.url),
      cookies: [],
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
      ...(request.body === undefined
        ? {}
        : {
            postData: {
              mimeType: headerValue(requestHeaders, 'content-type') ?? 'application/octet-stream',
              text: request.body,
            },
          }),
    },
    response: response === undefined ? failedResponse(error ?? 'no response') : harResponse(response, secrets, error),
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
  };
  if (error !== undefined) entry['comment'] = error;
  return secrets === known ? entry : redactValue(entry, secrets);
}

function harResponse(
  response: ExchangeResponse,
  secrets: string[],
  error: string | undefined,
): Record<string, unknown> {
  const headers = harHeaders(response.headers, secrets);
  const size = response.size ?? Buffer.byteLength(response.body);
  return {
    status: response.status,
    statusText: response.statusText,
    httpVersion: HTTP_VERSION,
    headers,
    cookies: [],
    content: {
      size,
      mimeType: response.contentType || headerValue(headers, 'content-type') || 'x-unknown',
      text: response.body,
      ...(response.bodyTruncated ? { comment: TRUNCATED_COMMENT } : {}),
    },
    redirectURL: headerValue(headers, 'location') ?? '',
    headersSize: -1,
    bodySize: size,
    ...(error === undefined ? {} : { _error: error }),
  };
}

/** HAR has no place for "no response": status 0 is what browsers record for a request that failed. */
function failedResponse(error: string): Record<string, unknown> {
  return {
    status: 0,
    statusText: '',
    httpVersion: '',
    headers: [],
    cookies: [],
    content: { size: 0, mimeType: 'x-unknown' },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
    _error: error,
  };
}

function harHeaders(headers: Record<string, string>, secrets: string[]): HarHeader[] {
  return Object.entries(redactHeaders(headers, secrets)).map(([name, value]) => ({ name, value }));
}

function headerValue(headers: HarHeader[], name: string): string | undefined {
  return headers.find((header) => header.name.toLowerCase() === name)?.value;
}

function queryString(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}
