// Write safety, decided once for the session, the command line and the explorer: which methods only
// read, the refusal of a write while writes are off, and the words a write is confirmed with.
import { SafetyError } from '../errors.js';
import type { PreparedRequest } from '../hal/operation.js';
import { redactHeaders } from './redact.js';

/** The safe methods of RFC 9110: they change nothing, so read-only mode sends them and retries may repeat them. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isReadMethod(method: string): boolean {
  return READ_METHODS.has(method.toUpperCase());
}

export function isWriteMethod(method: string): boolean {
  return !isReadMethod(method);
}

/** Why writes stay off whatever --allow-writes or the explorer's W say, and what would change that. */
export interface WritesLock {
  reason: string;
  hint: string;
}

/**
 * The refusal of a write while writes are off; undefined when the request may go. `locked` says why they
 * stay off whatever --allow-writes or the explorer's W say, and how to change that.
 */
export function writeRefusal(method: string, readOnly: boolean, locked?: WritesLock): SafetyError | undefined {
  if (!readOnly || isReadMethod(method)) return undefined;
  if (locked !== undefined)
    return new SafetyError(
      `read-only mode: ${method.toUpperCase()} changes data and was not sent: ${locked.reason}`,
      `${locked.hint}; neither --allow-writes nor W lifts it`,
    );
  return new SafetyError(
    `read-only mode: ${method.toUpperCase()} changes data and was not sent`,
    'start dpx with --allow-writes, or set "readOnly": false in the profile, to allow writes',
  );
}

export interface WriteContext {
  /** The control plane's base URL. */
  baseUrl: string;
  /** The OU's name, when dpx knows it. */
  ouName?: string;
}

/** `Finance (3f2…)`, the bare id when the name is unknown, or a plain statement that no OU scopes it. */
export function describeOu(ou: string | undefined, ouName: string | undefined): string {
  if (!ou) return 'no organizational unit (the token’s whole scope)';
  return ouName ? `${ouName} (${ou})` : ou;
}

/**
 * What a write is confirmed with: the request as it will leave — method and URL, the operation, the
 * control plane, the unit by name and id, every header (the token masked), and the body formatted.
 */
export function confirmationLines(request: PreparedRequest, context: WriteContext): string[] {
  return [
    `${request.method.toUpperCase()} ${request.url}`,
    `operation: ${request.resource} ${request.operationId} (${request.version})`,
    `control plane: ${context.baseUrl}`,
    `organizational unit: ${describeOu(request.ou, context.ouName)}`,
    'headers:',
    ...Object.entries({ authorization: 'Bearer ***', ...redactHeaders(request.headers) }).map(
      ([name, value]) => `  ${name}: ${value}`,
    ),
    ...(request.body === undefined ? [] : bodyLines(request.body)),
  ];
}

/** The body under a line saying how long it is; JSON is shown indented, though it is sent as it was given. */
export function bodyLines(body: string): string[] {
  const bytes = Buffer.byteLength(body, 'utf8');
  let shown = body;
  let formatted = false;
  try {
    const indented = JSON.stringify(JSON.parse(body), null, 2);
    formatted = indented !== body;
    shown = indented;
  } catch {
    // Not JSON: shown as it is.
  }
  return [
    `body (${bytes} bytes${formatted ? ', shown indented; sent as given' : ''}):`,
    ...shown.split('\n').map((line) => `  ${line}`),
  ];
}

/**
 * What a DELETE asks the user to type: the record's id when the request was opened from a record,
 * else the last path segment of the URL, which is what the DELETE addresses.
 */
export function deleteConfirmationWord(request: PreparedRequest, record?: Record<string, unknown>): string {
  const id = record?.['id'];
  if ((typeof id === 'string' && id !== '') || typeof id === 'number') {
    const word = String(id);
    if (new URL(request.url).pathname.split('/').map(safeDecode).includes(word)) return word;
  }
  const segments = new URL(request.url).pathname.split('/').filter(Boolean);
  return safeDecode(segments[segments.length - 1] ?? '');
}

export function needsTypedConfirmation(method: string): boolean {
  return method.toUpperCase() === 'DELETE';
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
