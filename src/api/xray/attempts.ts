// The filters an inbound candidate is asked with, in turn: its own (a field, or a `…type`/`…id` pair),
// and for a pair the id alone, which a server that refuses a filter on the type field still answers; the
// type is then checked on the records that come back (inbound.ts, refersTo).
import { scalarText, valueAt } from '../json.js';
import type { FilterForm } from './filters.js';
import type { InboundCandidate } from './inbound.js';
import type { Unsearchable } from './types.js';

export interface Attempt {
  filter: Record<string, string | number>;
  /** The fields it filters on: what the list is said to accept when it answers. */
  fields: string[];
  /** The fields whose remembered refusal rules the attempt out without asking. */
  remembered: string[];
  /** Asked without the type: a record's type is checked, not the filter's. */
  typeChecked: boolean;
}

/** One form of a filter that did not do: refused with a 400 (or 422), or answered without being applied. */
export interface FailedForm {
  form: FilterForm;
  reason: Unsearchable['reason'];
  code: string;
  message: string;
}

export function attemptsOf(candidate: InboundCandidate, id: string | number): Attempt[] {
  const { typeField, idField } = candidate;
  if (typeField === undefined)
    return [{ filter: candidate.filter, fields: [idField], remembered: [idField, candidate.via], typeChecked: false }];
  return [
    {
      filter: candidate.filter,
      fields: [typeField, idField],
      remembered: [candidate.via, typeField, idField],
      typeChecked: false,
    },
    { filter: { [idField]: id }, fields: [idField], remembered: [idField], typeChecked: true },
  ];
}

/** Whether the record holds the id asked for, whatever its type. */
export function namesId(record: Record<string, unknown>, candidate: InboundCandidate, id: string | number): boolean {
  return scalarText(valueAt(record, candidate.idField)) === String(id);
}

export function ignoredText(notReferring: number, all: number): string {
  return `${notReferring} of ${all} records on its page do not refer to this record`;
}
