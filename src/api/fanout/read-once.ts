// A list merged from every unit, read once: the root's list holds every unit's records, each naming its
// unit in a field found at run time, so one walk of it (at its largest page) tags each record with its
// own unit instead of reading every unit's scope — where an ancestor's scope would repeat its
// descendants' records. The records come in the server's own order.
//
// Where the root's list does not hold some unit's records, the counts show it: each unit counts its whole
// subtree, so a top-level unit's own total (one counted request of one record) that exceeds what the
// root's list gave of its subtree means records the root's list left out. The shortfall is then traced
// down the tree — a unit's children asked for their totals, those the root's list showed fewest records
// of first, until the shortfall is accounted for — and each unit found short is read from its own scope
// after the root's list, its records that the root's list already gave left out.
import { isObject } from '../json.js';
import { toDpxError, type DpxError } from '../errors.js';
import { envelopeCount, listRequest, walkPages } from '../session/pages.js';
import type { Page } from '../session/page.js';
import { largestPageSize } from '../session/page-size.js';
import { RecordDedupe } from './fanout.js';
import { findUnitField, UnitPlaces } from './groups.js';
import type { Scope, Source } from './scopes.js';
import { directoryOf, type UnitDirectory } from './unit-names.js';
import { loadUnits, type OrgUnit } from './units.js';

type ListTarget = Parameters<typeof listRequest>[1];

export interface ReadOncePage {
  page: Page;
  /** Each record of the page with the scope of the unit it names (the root's when it names none known). */
  records: { record: Record<string, unknown>; scope: Scope }[];
  /** Set on the pages of a unit read from its own scope, because the root's list lacked some of its records. */
  from?: Scope;
}

/** A unit the root's list lacked records of, as the counts showed. */
export interface Shortfall {
  unit: OrgUnit;
  /** The unit's own total_count (its whole subtree). */
  server: number;
  /** Records of its subtree the root's list gave. */
  root: number;
}

export interface ReadOnceOptions {
  signal?: AbortSignal;
  /** Told what the check of the root's list found, in a line a person reads. */
  note?: (message: string) => void;
  /** Told when a unit read from its own scope fails: the records it gave stay given, and the others are still read. */
  failed?: (scope: Scope, error: DpxError) => void;
}

/**
 * The root's pages with each record placed in its unit, then the pages of any unit whose records the
 * root's list lacked; undefined (before any record is handed out) when the source has no unit tree or its
 * records name no unit, so that the caller reads per unit.
 */
export async function readOnce(
  source: Source,
  target: ListTarget,
  options: ReadOnceOptions = {},
): Promise<{ unitField: string; pages: AsyncGenerator<ReadOncePage> } | undefined> {
  const { signal } = options;
  const units = await loadUnits(source.session, signal ? { signal } : {});
  if (units === undefined || units.length === 0) return undefined;
  const places = new UnitPlaces(units);
  const directory = directoryOf(units);
  const scopes = new Map(units.map((unit) => [unit.id, scopeOf(source, unit, directory)]));
  const root: Scope = { source, ou: null, ouName: null, depth: 0, within: [], path: [], units: directory };
  // The page size given (--page-size), else the largest the list takes.
  const size =
    target.pageSize === undefined ? await largestPageSize(source.session, { ...target, ou: null }, signal) : undefined;
  const pageSize = target.pageSize ?? size?.ask;
  const first = await listRequest(source.session, {
    ...target,
    ou: null,
    ...(pageSize === undefined ? {} : { pageSize }),
  });
  const walk = walkPages(source.session, first, signal ? { signal } : {});
  const head = await walk.next();
  if (head.done) return { unitField: '', pages: (async function* () {})() };
  const unitField = findUnitField(head.value.items, places);
  if (unitField === undefined) {
    await walk.return(undefined);
    return undefined;
  }
  // Records per page: what a unit's total costs to read. A first page with no next link held the whole list.
  const perPage =
    target.pageSize ??
    size?.perPage ??
    (head.value.links.has('next') ? Math.max(1, head.value.items.length) : Number.POSITIVE_INFINITY);
  const given = new RecordDedupe();
  /** Records of each unit's subtree the root's list gave, by unit id. */
  const held = new Map<string, number>();
  const place = (page: Page, from?: Scope): ReadOncePage => ({
    page,
    records: page.items
      .filter((record) => given.admit(record))
      .map((record) => {
        const unit = record[unitField];
        const scope = typeof unit === 'string' ? scopes.get(unit) : undefined;
        if (from === undefined && scope !== undefined)
          for (const id of [scope.ou!, ...scope.within]) held.set(id, (held.get(id) ?? 0) + 1);
        return { record, scope: scope ?? from ?? root };
      }),
    ...(from === undefined ? {} : { from }),
  });
  return {
    unitField,
    pages: (async function* () {
      yield place(head.value);
      let pages = 1;
      for await (const page of walk) {
        pages += 1;
        yield place(page);
      }
      // Every page of the root's list was taken (a reader that stops early ends here at its last yield).
      const check = new RootCheck(source, units, directory, target, held, perPage, options);
      const short = await check.shortfalls(pages, target.page !== undefined && target.page !== '');
      for (const { unit } of short) {
        const scope = scopes.get(unit.id)!;
        try {
          const request = await listRequest(source.session, {
            ...withoutPage(target),
            ou: unit.id,
            ...(pageSize === undefined ? {} : { pageSize }),
          });
          for await (const page of walkPages(source.session, request, signal ? { signal } : {}))
            yield place(page, scope);
        } catch (error) {
          if (signal?.aborted || options.failed === undefined) throw error;
          options.failed(scope, toDpxError(error));
        }
      }
    })(),
  };
}

/**
 * Whether the root's list held every unit's records, by the units' own counts: the top-level units'
 * totals first (one request each), then, below a unit that falls short, its children's until the
 * shortfall is accounted for. The units to read from their own scope, in tree order.
 */
class RootCheck {
  private readonly children = new Map<string, OrgUnit[]>();

  constructor(
    private readonly source: Source,
    private readonly units: readonly OrgUnit[],
    private readonly directory: UnitDirectory,
    private readonly target: ListTarget,
    /** Records of each unit's subtree the root's list gave. */
    private readonly held: ReadonlyMap<string, number>,
    private readonly perPage: number,
    private readonly options: ReadOnceOptions,
  ) {
    const ids = new Set(units.map((unit) => unit.id));
    for (const unit of units) {
      if (unit.parent === undefined || !ids.has(unit.parent) || unit.depth === 0) continue;
      this.children.set(unit.parent, [...(this.children.get(unit.parent) ?? []), unit]);
    }
  }

  async shortfalls(pagesRead: number, midway: boolean): Promise<Shortfall[]> {
    const note = this.options.note ?? (() => undefined);
    const tops = this.units.filter((unit) => unit.depth === 0);
    if (midway) {
      note("read once: not checked that the root's list holds every unit's records (the walk started at a later page)");
      return [];
    }
    // A request per top-level unit: more than a tenth of the root's pages (a flat list of many units) is not spent on it.
    const affordable = Math.max(1, Math.floor(pagesRead / 10));
    if (tops.length > affordable) {
      note(
        "read once: not checked that the root's list holds every unit's records " +
          `(${tops.length} top-level units would each need a counted request; ` +
          'name the units with --ou to read each in its own scope)',
      );
      return [];
    }
    const found: Shortfall[] = [];
    const unknown: string[] = [];
    let checked = 0;
    const settle = async (unit: OrgUnit, server: number): Promise<void> => {
      const root = this.held.get(unit.id) ?? 0;
      const missing = server - root;
      if (missing <= 0) return;
      const kids = this.children.get(unit.id) ?? [];
      // Reading the unit whole re-reads what the root's list gave of it; tracing the shortfall to its
      // children costs up to a request per child. The cheaper is taken: where the root's list gave
      // nothing of it, reading it whole re-reads nothing.
      const pages = (records: number) => Math.ceil(records / this.perPage);
      if (kids.length === 0 || pages(server) - pages(missing) <= kids.length) {
        found.push({ unit, server, root });
        return;
      }
      const short: { kid: OrgUnit; server: number }[] = [];
      let traced = 0;
      // Those the root's list showed fewest records of first: a unit it left out whole shows none.
      for (const kid of [...kids].sort((a, b) => (this.held.get(a.id) ?? 0) - (this.held.get(b.id) ?? 0))) {
        if (traced >= missing) break;
        const total = await this.total(kid, unknown);
        checked += 1;
        if (total === undefined) break;
        const kidMissing = total - (this.held.get(kid.id) ?? 0);
        if (kidMissing > 0) {
          short.push({ kid, server: total });
          traced += kidMissing;
        }
      }
      // Not all in its children: some of its own records, or a count that could not be read. Its scope holds them all.
      if (traced < missing) {
        found.push({ unit, server, root });
        return;
      }
      for (const { kid, server: total } of short) await settle(kid, total);
    };
    for (const top of tops) {
      const total = await this.total(top, unknown);
      checked += 1;
      if (total !== undefined) await settle(top, total);
    }
    const order = new Map(this.units.map((unit, index) => [unit.id, index]));
    found.sort((a, b) => order.get(a.unit.id)! - order.get(b.unit.id)!);
    if (unknown.length > 0)
      note(`read once: not checked whether the root's list holds every record of ${unknown.join(', ')}`);
    for (const { unit, server, root } of found) {
      note(
        `read once: the root's list lacks ${server - root} of the ${server} records of ${this.name(unit)}: read from its own scope after the root's list`,
      );
    }
    if (found.length === 0 && unknown.length === 0)
      note(
        `read once: the root's list held every unit's records (checked against ${checked} ${checked === 1 ? "unit's own count" : "units' own counts"})`,
      );
    return found;
  }

  /** A unit's own total_count, asked for one record; undefined (and the unit named in `unknown`) when it cannot be read. */
  private async total(unit: OrgUnit, unknown: string[]): Promise<number | undefined> {
    const { session } = this.source;
    const { signal } = this.options;
    try {
      const request = await listRequest(session, { ...withoutPage(this.target), ou: unit.id, pageSize: 1 });
      const response = await session.send(request, signal ? { signal } : {});
      const total = isObject(response.body) ? envelopeCount(response.body, 'total_count') : undefined;
      if (total === undefined) unknown.push(`${this.name(unit)} (its list reports no total_count)`);
      return total;
    } catch (error) {
      if (signal?.aborted) throw error;
      unknown.push(`${this.name(unit)} (${toDpxError(error).message})`);
      return undefined;
    }
  }

  /** A unit by its path of names, as the merged list's _context shows it. */
  private name(unit: OrgUnit): string {
    return this.directory.path(unit.id).join(' / ');
  }
}

function withoutPage(target: ListTarget): ListTarget {
  const { page: _page, ...rest } = target;
  return rest;
}

/** A unit's scope as the per-unit fan-out would name it: its depth, and the units that hold it, nearest first. */
function scopeOf(source: Source, unit: OrgUnit, directory: UnitDirectory): Scope {
  const within: string[] = [];
  const seen = new Set([unit.id]);
  for (
    let parent = unit.parent;
    parent !== undefined && directory.get(parent) !== undefined && !seen.has(parent);
    parent = directory.get(parent)!.parent
  ) {
    within.push(parent);
    seen.add(parent);
  }
  return {
    source,
    ou: unit.id,
    ouName: unit.name,
    depth: within.length,
    within,
    path: directory.path(unit.id),
    units: directory,
  };
}
