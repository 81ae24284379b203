// One request and what came back, as the session saw it. The trail (HAR) and the UI's request log
// read these; the session emits one per attempt, after redacting nothing — redaction is the reader's job.

export interface ExchangeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ExchangeResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  /** The body as text, possibly truncated for very large bodies (see `bodyTruncated`). */
  body: string;
  bodyTruncated: boolean;
  /** The body's length in bytes as received, when known: counting it again from the text is not free. */
  size?: number;
  contentType: string;
}

export interface Exchange {
  startedAt: Date;
  durationMs: number;
  request: ExchangeRequest;
  response?: ExchangeResponse;
  /** Set when no response arrived (timeout, reset) or the session refused to send. */
  error?: string;
}

export type ExchangeListener = (exchange: Exchange) => void;
