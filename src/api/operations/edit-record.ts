// `dpx call <resource> <update-operation> ID --edit` starts from the record, as the explorer's form does:
// the record is read with its resource's read operation, and the form made from it (form.ts) gives the
// body to edit — the fields the schema accepts, at their current values — and, for a PATCH, sends only
// the fields that changed.
import { isObject } from '../json.js';
import type { Catalog, Operation, Resource } from '../hal/catalog.js';
import { findReadOperation } from '../hal/operation.js';
import type { TaskSession } from './task.js';
import { bodyToSend, createOperationForm, type OperationFormState } from './form.js';

export interface RecordEdit {
  /** The text offered in the editor: the record's accepted fields, the others commented out. */
  start: string;
  /** The body that goes once edited: for a PATCH, only what changed. */
  toSend(edited: string): string | undefined;
}

/**
 * The record an update (PUT or PATCH) of its own resource addresses, read now; undefined for any other
 * operation, when the resource has no read operation, or when the id is not given.
 */
export async function recordEdit(
  session: Pick<TaskSession, 'prepare' | 'send'>,
  target: { catalog: Catalog; resource: Resource; version: string; operation: Operation },
  variables: Record<string, string>,
  bodySchema: Record<string, unknown>,
): Promise<RecordEdit | undefined> {
  const { resource, version, operation } = target;
  if (!['PUT', 'PATCH'].includes(operation.method.toUpperCase())) return undefined;
  const read = findReadOperation(resource, version);
  const last = operation.pathVariables[operation.pathVariables.length - 1];
  const id = last === undefined ? undefined : variables[last];
  const readVariable = read?.operation.pathVariables[0];
  if (!read || id === undefined || readVariable === undefined) return undefined;
  const request = await session.prepare({
    resource: resource.name,
    version: read.version,
    operationId: read.operation.id,
    variables: { [readVariable]: id },
  });
  const record = (await session.send(request)).body;
  if (!isObject(record)) return undefined;
  const form: OperationFormState = createOperationForm({
    resource: resource.name,
    version,
    operation,
    bodySchema,
    record: { resource: resource.name, fields: record },
  });
  if (!form.baseline) return undefined;
  return { start: form.body, toSend: (edited) => bodyToSend({ ...form, body: edited }) };
}
