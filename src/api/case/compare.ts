// One record read twice — in two versions, two units, or through two sessions (profiles) — and the two
// documents aligned (diff.ts). For `dpx diff` and the explorer's `d` on a record: both reads run at once,
// and one side failing never loses the other.

import { alignDocuments, type AlignedField } from './diff.js';
import { toDpxError, UsageError, type DpxError } from '../errors.js';
import { findReadOperation, resolveVersion, type OuChoice, type PreparedRequest } from '../hal/operation.js';
import type { ApiResponse } from '../wire/response.js';
import type { Session } from '../session/session.js';

/** One way of reading the record: a session (a profile), and optionally a version and a unit. */
export interface RecordSide {
  label: string;
  session: Session;
  version?: string;
  /** undefined: the session's unit; null: none; else that unit's id. */
  ou?: OuChoice;
}

export interface SideRead {
  side: RecordSide;
  response: ApiResponse;
}

export interface SideFailure {
  side: RecordSide;
  error: DpxError;
}

/** Both sides read and their documents aligned by field path; or what each side gave when one could not be read. */
export type RecordComparison =
  | { complete: true; left: SideRead; right: SideRead; rows: AlignedField[] }
  | { complete: false; left: SideRead | SideFailure; right: SideRead | SideFailure };

/** The request that reads one record: the resource's read operation (a GET with one path variable) in the side's version and unit. */
export async function recordRequest(
  side: Omit<RecordSide, 'label'>,
  resource: string,
  id: string,
): Promise<PreparedRequest> {
  const catalog = await side.session.catalog();
  const { resource: found, version } = resolveVersion(catalog, {
    resource,
    ...(side.version === undefined ? {} : { version: side.version }),
  });
  const read = findReadOperation(found, version.version)?.operation;
  if (!read) {
    throw new UsageError(
      `${found.name} ${version.version} has no operation that reads one record`,
      'a comparison needs a GET operation whose href takes the record id',
    );
  }
  return side.session.prepare({
    resource: found.name,
    version: version.version,
    operationId: read.id,
    variables: { [read.pathVariables[0]!]: id },
    ...(side.ou === undefined ? {} : { ou: side.ou }),
  });
}

export async function compareRecord(
  resource: string,
  id: string,
  left: RecordSide,
  right: RecordSide,
  options: { signal?: AbortSignal } = {},
): Promise<RecordComparison> {
  const read = async (side: RecordSide): Promise<SideRead | SideFailure> => {
    try {
      const request = await recordRequest(side, resource, id);
      return { side, response: await side.session.send(request, options.signal ? { signal: options.signal } : {}) };
    } catch (error) {
      return { side, error: toDpxError(error) };
    }
  };
  const [leftResult, rightResult] = await Promise.all([read(left), read(right)]);
  if ('response' in leftResult && 'response' in rightResult) {
    return {
      complete: true,
      left: leftResult,
      right: rightResult,
      rows: alignDocuments(leftResult.response.body, rightResult.response.body),
    };
  }
  return { complete: false, left: leftResult, right: rightResult };
}
