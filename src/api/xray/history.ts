// The records that refer to a record, as a history: who did what, with what outcome, and when. The
// fields are found by name, the same way for any list:
//   when    — a field named timestamp/time/date/occurred_at, else one whose name starts with created,
//             else any *_timestamp, *_at, *_time or *_date; its value an ISO 8601 timestamp;
//   who     — a field whose name speaks of a person (user…, actor, *_by, owner, initiator…); an object
//             there reads as its name, e-mail or kind;
//   what    — a field named action/event/operation/activity (or ending so), else the record's name;
//   outcome — a field named outcome or result (or ending so), else status or state (or ending so).
import { isObject, scalarText, timestampOf } from '../json.js';
import { recordLabel, recordName } from '../hal/records.js';

export interface TimelineEntry {
  /** The node of the record. */
  key: string;
  resource: string;
  at: number;
  when: string;
  who?: string;
  what?: string;
  outcome?: string;
  /** The field each part was read from. */
  fields: { when: string; who?: string; what?: string; outcome?: string };
}

const WHEN_EXACT = /^(timestamp|time|date|occurred_at|event_time)$/i;
const WHEN_CREATED = /^created/i;
const WHEN_ANY = /(timestamp|_at|_time|_date)$/i;
const WHO = /(^|_)(user|actor|by|owner|principal|initiator|requester|operator|performer)(_|$)/i;
const WHAT = /(^|_)(action|event|operation|activity)$/i;
const OUTCOME = /(^|_)(outcome|result)$/i;
const STATUS = /(^|_)(status|state)$/i;

export function timelineEntry(
  key: string,
  resource: string,
  record: Record<string, unknown>,
): TimelineEntry | undefined {
  const when = pickWhen(record);
  if (!when) return undefined;
  const entry: TimelineEntry = { key, resource, at: when.at, when: when.text, fields: { when: when.field } };
  const who = firstField(record, (name) => WHO.test(name), personText);
  if (who) {
    entry.who = who.text;
    entry.fields.who = who.field;
  }
  const what = eventOf(record);
  const name = recordName(record);
  if (what) {
    entry.what = what.text;
    entry.fields.what = what.field;
  } else if (name) {
    entry.what = name.name;
    entry.fields.what = name.field;
  }
  const outcome =
    firstField(record, (field) => OUTCOME.test(field), scalarText) ??
    firstField(record, (field) => STATUS.test(field), scalarText);
  if (outcome) {
    entry.outcome = outcome.text;
    entry.fields.outcome = outcome.field;
  }
  return entry;
}

/** What a record says happened (`session.login`), from its action-like field; undefined for a record that is not an event. */
export function eventOf(record: Record<string, unknown>): { field: string; text: string } | undefined {
  return firstField(record, (name) => WHAT.test(name), scalarText);
}

/** Newest first; records without a timestamp are not history. */
export function timeline(
  records: { key: string; resource: string; record: Record<string, unknown> }[],
): TimelineEntry[] {
  return records
    .flatMap(({ key, resource, record }) => timelineEntry(key, resource, record) ?? [])
    .sort((a, b) => b.at - a.at);
}

function pickWhen(record: Record<string, unknown>): { field: string; text: string; at: number } | undefined {
  for (const rule of [WHEN_EXACT, WHEN_CREATED, WHEN_ANY]) {
    for (const [field, value] of Object.entries(record)) {
      const at = rule.test(field) ? timestampOf(value) : undefined;
      if (at !== undefined) return { field, text: value as string, at };
    }
  }
  return undefined;
}

function firstField(
  record: Record<string, unknown>,
  matches: (name: string) => boolean,
  read: (value: unknown) => string | undefined,
): { field: string; text: string } | undefined {
  for (const [field, value] of Object.entries(record)) {
    if (field.startsWith('_') || !matches(field)) continue;
    const text = read(value);
    if (text !== undefined) return { field, text };
  }
  return undefined;
}

/** A person as text: the value itself, or an object's name or e-mail, else its kind (`schedule`, `system`). */
function personText(value: unknown): string | undefined {
  if (!isObject(value)) return scalarText(value);
  return recordLabel(value) ?? scalarText(value['type']) ?? scalarText(value['kind']);
}
