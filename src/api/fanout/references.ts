// References read as names: a list's `<singular>_id` columns whose resource the index has, and the
// name of the record each id refers to. Each distinct id is read once per session and unit, through the
// session; a screen asks for the ids it shows and redraws as names arrive. The ids a list's screen asks
// for are read in one request where the referenced resource's list takes a filter on ids
// (`{"id":{"$in":[…]}}`), else one record at a time, a few at once.
import type { Catalog, Resource } from '../hal/catalog.js';
import { Bounded } from '../bounded.js';
import { findVersion } from '../hal/catalog.js';
import { findListOperation, findReadOperation, pagingParameters } from '../hal/operation.js';
import { readPage } from '../session/pages.js';
import { namesRecordId } from '../operations/prefill.js';
import { recordId, recordLabel } from '../hal/records.js';
import { isObject, scalarText } from '../json.js';
import type { OuChoice, Session } from '../session/session.js';

export interface IdColumn {
  /** The list's field: `protection_group_id`. */
  field: string;
  /** The resource its ids belong to, and the version read. */
  resource: string;
  version: string;
}

/** Reads in flight at once per session for names. */
export const NAME_CONCURRENCY = 8;

/**
 * The fields of `records` that hold ids of another resource: `<singular>_id` naming a resource of the
 * index that has a read operation. A field naming more than one resource is left alone (it would be a
 * guess), and so is `id` itself.
 */
export function idColumns(catalog: Catalog, records: readonly Record<string, unknown>[]): IdColumn[] {
  const fields = new Set<string>();
  for (const record of records) for (const field of Object.keys(record)) if (/_id$/i.test(field)) fields.add(field);
  const columns: IdColumn[] = [];
  for (const field of fields) {
    const named = catalog.resources.filter(
      (resource) => namesRecordId(field, resource.name) && findReadOperation(resource) !== undefined,
    );
    if (named.length !== 1) continue;
    const resource = named[0]!;
    columns.push({ field, resource: resource.name, version: findReadOperation(resource)!.version });
  }
  return columns;
}

/** The distinct ids of a column among `records`, in the order they appear. */
export function columnIds(column: IdColumn, records: readonly Record<string, unknown>[]): string[] {
  return [...new Set(records.flatMap((record) => scalarText(record[column.field]) ?? []))];
}

/**
 * Names of referenced records for one session. `name()` answers from what is known (a name, `null` when
 * the record was read and has none or could not be read, undefined when not asked yet); `resolve()` reads
 * what is not known yet.
 */
export class ReferenceNames {
  private static readonly perSession = new WeakMap<Session, ReferenceNames>();
  private readonly names = new Map<string, string | null>();
  private readonly pending = new Map<string, Promise<string | null>>();
  private readonly pool = new Bounded(NAME_CONCURRENCY);
  /** Requests sent for names over the session's life. */
  requests = 0;
  /** Resources whose list refused or ignored a filter on ids: their records are read one at a time. */
  private readonly unfiltered = new Set<string>();

  private constructor(private readonly session: Session) {}

  /** The one cache of a session: every screen of it shares the names already read. */
  static of(session: Session): ReferenceNames {
    let names = ReferenceNames.perSession.get(session);
    if (!names) ReferenceNames.perSession.set(session, (names = new ReferenceNames(session)));
    return names;
  }

  /** `ou` as in a request: undefined for the session's current unit, null for none, else that unit (the list's own). */
  name(column: IdColumn, id: string, ou?: OuChoice): string | null | undefined {
    return this.names.get(this.key(column, id, ou));
  }

  /**
   * Reads the name of every id not known yet (each once, however often asked), calling `onName` as each
   * arrives; resolves with the names of all `ids`. An aborted read is forgotten, so a later call asks again.
   */
  async resolve(
    column: IdColumn,
    ids: Iterable<string>,
    options: {
      signal?: AbortSignal;
      ou?: OuChoice;
      onName?: (id: string, name: string | null) => void;
      /** Read the ids in one request of the resource's list, filtered on them, where it takes that filter. */
      together?: boolean;
    } = {},
  ): Promise<Map<string, string | null>> {
    const catalog = await this.session.catalog();
    const resource = catalog.resources.find((candidate) => candidate.name === column.resource);
    const wanted = [...new Set(ids)].filter((id) => {
      const key = this.key(column, id, options.ou);
      return !this.names.has(key) && !this.pending.has(key);
    });
    if (options.together && wanted.length > 1) this.readTogether(resource, column, wanted, options.ou, options.signal);
    const answers = await Promise.all(
      [...new Set(ids)].map(async (id) => {
        const key = this.key(column, id, options.ou);
        const known = this.names.get(key);
        if (known !== undefined) return [id, known] as const;
        let reading = this.pending.get(key);
        if (!reading) {
          reading = this.read(resource, column, id, options.ou, options.signal);
          this.pending.set(key, reading);
        }
        try {
          const name = await reading;
          this.names.set(key, name);
          options.onName?.(id, name);
          return [id, name] as const;
        } finally {
          this.pending.delete(key);
        }
      }),
    );
    return new Map(answers);
  }

  /**
   * Starts one read of the list of `column`'s resource filtered on `ids`, and sets each id's pending name
   * to what it answers; an id it does not answer for is read alone. A list that refuses the filter, or
   * answers with records it did not ask for (the filter ignored), is not asked so again in this session.
   */
  private readTogether(
    resource: Resource | undefined,
    column: IdColumn,
    ids: string[],
    ou: OuChoice,
    signal: AbortSignal | undefined,
  ): void {
    if (this.unfiltered.has(column.resource)) return;
    const list = resource && findVersion(resource, column.version);
    const operation = list && findListOperation(list);
    if (!operation) return;
    const together = this.pool.run(async () => {
      signal?.throwIfAborted();
      const names = pagingParameters(operation);
      const request = await this.session.prepare({
        resource: column.resource,
        version: column.version,
        operationId: operation.id,
        query: { [names.filter]: JSON.stringify({ id: { $in: ids } }), [names.pageSize]: String(ids.length) },
        ou,
      });
      this.requests += 1;
      const response = await this.session.send(request, signal ? { signal } : {});
      const records = readPage({ body: response.body, url: response.url, headers: response.headers }).items;
      const asked = new Set(ids);
      if (records.some((record) => !asked.has(recordId(record) ?? ''))) throw new Error('the filter was ignored');
      return new Map(records.map((record) => [recordId(record)!, labelOf(record)]));
    });
    for (const id of ids) {
      const key = this.key(column, id, ou);
      const reading = together.then(
        (found) => (found.has(id) ? found.get(id)! : this.read(resource, column, id, ou, signal)),
        (error: unknown) => {
          if (signal?.aborted) throw error;
          this.unfiltered.add(column.resource);
          return this.read(resource, column, id, ou, signal);
        },
      );
      this.pending.set(key, reading);
    }
  }

  private async read(
    resource: Resource | undefined,
    column: IdColumn,
    id: string,
    ou: OuChoice,
    signal: AbortSignal | undefined,
  ): Promise<string | null> {
    const read = resource && findReadOperation(resource, column.version);
    if (!read) return null;
    return this.pool.run(async () => {
      signal?.throwIfAborted();
      const request = await this.session.prepare({
        resource: column.resource,
        version: read.version,
        operationId: read.operation.id,
        variables: { [read.operation.pathVariables[0]!]: id },
        ou,
      });
      this.requests += 1;
      try {
        const response = await this.session.send(request, signal ? { signal } : {});
        return isObject(response.body) ? labelOf(response.body) : null;
      } catch (error) {
        // A cancelled read is not an answer: the next screen that shows the id asks again.
        if (signal?.aborted) throw error;
        return null;
      }
    });
  }

  /** Names differ by unit (a record outside it is not found), so the unit is part of what is cached. */
  private key(column: IdColumn, id: string, ou: OuChoice): string {
    const unit = ou === undefined ? (this.session.ou ?? '') : (ou ?? '');
    return `${unit}\n${column.resource}\n${id}`;
  }
}

/** What a record is called, or null when it has no name of its own (its label is its id). */
function labelOf(record: Record<string, unknown>): string | null {
  const label = recordLabel(record);
  return label === undefined || label === recordId(record) ? null : label;
}
