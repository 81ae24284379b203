// A record screen as data: the record (and how it was read), where it was read, the versions seen while
// watching it, and what the user did to its tree.
import type { Link } from '../../../api/hal/links.js';
import { changedFields } from '../../../api/case/diff.js';
import type { ScreenBase } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';

/** How to read a record the opener does not have yet: by an operation of the index, or by a URL. */
export type RecordRead = { operationId: string; variables: Record<string, string> } | { href: string };

export interface RecordParams {
  origin: Origin;
  resource: string;
  version: string;
  /** The record, or how to read it. */
  record?: Record<string, unknown>;
  read?: RecordRead;
  /** Earlier versions of it, oldest first (a watched list's last values of the row). */
  earlier?: Record<string, unknown>[];
}

export interface RecordState extends ScreenBase {
  /** Writes to the resource when the record was last read: more means it may have changed. */
  writesSeen?: number;
  origin: Origin;
  resource: string;
  version: string;
  record: Record<string, unknown>;
  read?: RecordRead;
  links: Link[];
  collapsed: Set<string>;
  cursor: number;
  top: number;
  raw: boolean;
  /** The versions seen, oldest first, the last the record itself; at most VERSIONS_KEPT. */
  versions: Record<string, unknown>[];
  /** Which version is on show. */
  shown: number;
  /** `w`: the record is read again every few seconds, a new version kept when it changed. */
  watch: boolean;
}

export const VERSIONS_KEPT = 10;

/** The record's versions with `record` added as the newest, when it differs from the last one. */
export function withVersion(
  versions: Record<string, unknown>[],
  record: Record<string, unknown>,
): Record<string, unknown>[] {
  const last = versions[versions.length - 1];
  if (last !== undefined && changedFields(last, record).length === 0) return versions;
  return [...versions, record].slice(-VERSIONS_KEPT);
}
