// What must be said and asked before a request that changes something.
import { SafetyError } from '../errors.js';
import type { PreparedRequest } from '../operation.js';

const READ_METHODS = new Set(['GET', 'HEAD']);

export function isWriteMethod(method: string): boolean {
  return !READ_METHODS.has(method.toUpperCase());
}

/** The refusal to show before even trying a write in read-only mode; undefined when the request may go. */
export function writeRefusal(method: string, readOnly: boolean): SafetyError | undefined {
  if (!readOnly || !isWriteMethod(method)) return undefined;
  return new SafetyError(
    `read-only mode: ${method.toUpperCase()} changes data and was not sent`,
    'start dpx with --allow-writes, or set readOnly: false in the profile, to allow writes',
  );
}

export interface WriteContext {
  /** The control plane's base URL. */
  baseUrl: string;
  /** The OU id in the request, if any. */
  ou?: string;
  /** The OU's name, when dpx knows it. */
  ouName?: string;
}

/** `Finance (3f2…)`, the bare id when the name is unknown, or a plain statement that no OU scopes it. */
export function describeOu(ou: string | undefined, ouName: string | undefined): string {
  if (!ou) return 'no organizational unit (the token’s whole scope)';
  return ouName ? `${ouName} (${ou})` : ou;
}

/** The confirmation question, naming method, resource, operation, control plane and OU. */
export function confirmationLines(request: PreparedRequest, context: WriteContext): string[] {
  return [
    `${request.method.toUpperCase()} ${request.resource} (${request.operationId}, ${request.version})`,
    `control plane: ${context.baseUrl}`,
    `organizational unit: ${describeOu(context.ou, context.ouName)}`,
    `url: ${request.url}`,
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
