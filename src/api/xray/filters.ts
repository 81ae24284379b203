// The filter language of one control plane's lists, as its answers taught it. A lookup is asked first in
// the operator form (`{"field": {"$eq": value}}`, what a server shaped like the real service accepts
// alone), then in the bare form (`{"field": value}`). What a list accepted and refused is kept per
// session, and between runs in a store (config/cache.ts, per base URL) when the caller gives one:
//   - the form the list answered in, so the other one is not tried again;
//   - the fields it accepted a filter on, and those it refused in every form with the server's code, so a
//     list that cannot be searched on a field is said to be so at once, without asking again (for a day);
//   - whether a `…type` field's values name resources of the index (`target_type`: user, policy…) or
//     something else (`volume_type`: gp2, io1), which decides whether it pairs with an `…id` field;
//   - the fields seen on a page of the list's own records (fields.ts), so a later run need not read one.
import type { Session } from '../session/session.js';

export type FilterForm = 'operator' | 'bare';

export const FILTER_FORMS: readonly FilterForm[] = ['operator', 'bare'];

export interface FieldRefusal {
  /** The server's error code (its `error_code`, as text); empty when it sent none. */
  code: string;
  message: string;
  /** ms since the epoch. */
  at: number;
}

export interface ListFilterKnowledge {
  form?: FilterForm;
  accepted: string[];
  refused: Record<string, FieldRefusal>;
  /** `…type` field → whether its values name resources of the index. */
  typeFields: Record<string, boolean>;
  /** The scalar fields of a page of the list's own records, and when it was read (ms since the epoch). */
  seen?: { fields: string[]; at: number };
  /** When this was last confirmed by an answer (ms since the epoch). */
  at: number;
}

/** What the store keeps for one base URL. */
export interface StoredFilterKnowledge {
  /** The form the control plane answered in, on any list: tried first on lists not asked yet. */
  form?: FilterForm;
  /** By `<resource> <version>`. */
  lists: Record<string, ListFilterKnowledge>;
}

export interface FilterStore {
  read(baseUrl: string): Promise<StoredFilterKnowledge | undefined>;
  write(baseUrl: string, knowledge: StoredFilterKnowledge): Promise<void>;
}

/** A refusal is asked again after this long (the server may have learned the field). */
export const REFUSAL_KEPT_MS = 24 * 60 * 60 * 1000;
/** What a list accepted is trusted for this long. */
export const KNOWLEDGE_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** A filter of field → value in the form asked for. */
export function filterIn(form: FilterForm, conditions: Record<string, string | number>): Record<string, unknown> {
  if (form === 'bare') return { ...conditions };
  return Object.fromEntries(Object.entries(conditions).map(([field, value]) => [field, { $eq: value }]));
}

const perSession = new WeakMap<Session, Promise<FilterKnowledge>>();

export class FilterKnowledge {
  private changed = false;

  private constructor(
    private readonly baseUrl: string,
    private readonly known: StoredFilterKnowledge,
    private readonly store: FilterStore | undefined,
    private readonly now: () => number,
  ) {}

  /** The session's knowledge, read from the store the first time (a store that fails reads as empty). */
  static of(session: Session, store: FilterStore | undefined, now: () => number = Date.now): Promise<FilterKnowledge> {
    let pending = perSession.get(session);
    if (!pending) {
      pending = (store ? store.read(session.baseUrl).catch(() => undefined) : Promise.resolve(undefined)).then(
        (stored) => new FilterKnowledge(session.baseUrl, fresh(stored, now()), store, now),
      );
      perSession.set(session, pending);
    }
    return pending;
  }

  /** The forms to try on a list, the one it is known to answer in first (alone, when the list itself said so). */
  formsFor(list: string): FilterForm[] {
    const own = this.known.lists[list]?.form;
    if (own) return [own];
    const first = this.known.form ?? 'operator';
    return [first, ...FILTER_FORMS.filter((form) => form !== first)];
  }

  /** A field of `fields` the list is known to refuse, with the refusal. */
  refusal(list: string, fields: readonly string[]): { field: string; refusal: FieldRefusal } | undefined {
    const entry = this.known.lists[list];
    if (!entry) return undefined;
    for (const field of fields) {
      const refusal = entry.refused[field];
      if (refusal) return { field, refusal };
    }
    return undefined;
  }

  isAccepted(list: string, field: string): boolean {
    return this.known.lists[list]?.accepted.includes(field) === true;
  }

  /** The list answered a filter on `fields` in `form`. */
  accepted(list: string, form: FilterForm, fields: readonly string[]): void {
    const entry = this.entry(list);
    entry.form = form;
    entry.at = this.now();
    for (const field of fields) {
      if (!entry.accepted.includes(field)) entry.accepted.push(field);
      delete entry.refused[field];
    }
    this.known.form ??= form;
    this.changed = true;
  }

  /** The list refused a filter on `field` in every form. */
  refused(list: string, field: string, code: string, message: string): void {
    this.entry(list).refused[field] = { code, message, at: this.now() };
    this.changed = true;
  }

  typeField(list: string, field: string): boolean | undefined {
    return this.known.lists[list]?.typeFields[field];
  }

  setTypeField(list: string, field: string, namesResources: boolean): void {
    const entry = this.entry(list);
    entry.typeFields[field] = namesResources;
    this.changed = true;
  }

  /** The fields seen on the list's own records, while they are trusted. */
  fieldsSeen(list: string): string[] | undefined {
    return this.known.lists[list]?.seen?.fields;
  }

  /** A page of the list's own records had these fields. */
  sawFields(list: string, fields: readonly string[]): void {
    this.entry(list).seen = { fields: [...fields], at: this.now() };
    this.changed = true;
  }

  /** Writes what changed to the store; a store that fails costs nothing but the next run's questions. */
  async save(): Promise<void> {
    if (!this.changed || !this.store) return;
    this.changed = false;
    await this.store.write(this.baseUrl, this.known).catch(() => undefined);
  }

  private entry(list: string): ListFilterKnowledge {
    let entry = this.known.lists[list];
    if (!entry) this.known.lists[list] = entry = { accepted: [], refused: {}, typeFields: {}, at: this.now() };
    return entry;
  }
}

/** What of the stored knowledge is still trusted: refusals for a day, the rest (fields seen too) for a month. */
function fresh(stored: StoredFilterKnowledge | undefined, now: number): StoredFilterKnowledge {
  const lists: Record<string, ListFilterKnowledge> = {};
  for (const [name, entry] of Object.entries(stored?.lists ?? {})) {
    if (now - entry.at > KNOWLEDGE_KEPT_MS) continue;
    const refused = Object.fromEntries(
      Object.entries(entry.refused).filter(([, refusal]) => now - refusal.at <= REFUSAL_KEPT_MS),
    );
    const { seen, ...rest } = entry;
    lists[name] = {
      ...rest,
      accepted: [...entry.accepted],
      refused,
      typeFields: { ...entry.typeFields },
      ...(seen && now - seen.at <= KNOWLEDGE_KEPT_MS ? { seen: { fields: [...seen.fields], at: seen.at } } : {}),
    };
  }
  const form = Object.values(lists).find((entry) => entry.form !== undefined) ? stored?.form : undefined;
  return { ...(form === undefined ? {} : { form }), lists };
}
