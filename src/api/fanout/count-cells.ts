// Counting one row of a count matrix: its total and its cells, each the server's count for the unit's
// scope where the list reports one (a page of one record), else counted by dpx from every record of the
// unit's list, read once and tallied by value. How `other` and "changed while counting" follow from them.
import type { Channel } from '../channel.js';
import { toDpxError } from '../errors.js';
import { isObject, valueAt } from '../json.js';
import { envelopeCount, listRequest, readPage, walkPages } from '../session/pages.js';
import type { PageAnswer } from '../session/page.js';
import type { Session } from '../session/session.js';
import { valueLabel } from './count-values.js';
import type { Answer, Cell, CountEvent, CountTarget, RowCounts } from './count-types.js';
import type { Scope } from './scopes.js';

/** A row's numbers from its answers: `other` is what the total holds beyond the columns, when that can be true. */
export function rowCounts(total: Answer, columns: Answer[], by: boolean): RowCounts {
  const counts = columns.map((answer) => answer.count);
  const error = total.error ?? columns.find((answer) => answer.error)?.error;
  const result: RowCounts = {
    counts,
    counted: total.counted === true || columns.some((answer) => answer.counted),
    changed: false,
  };
  if (total.count !== undefined) result.total = total.count;
  if (error) result.error = error;
  if (total.count === undefined) return result;
  const known = counts.filter((count): count is number => count !== undefined);
  const rest = total.count - known.reduce((sum, count) => sum + count, 0);
  result.changed = known.some((count) => count > total.count!) || rest < 0;
  if (by && !result.changed && known.length === counts.length) result.other = rest;
  return result;
}

/**
 * Counting in one control plane. A row first asks for its total with a page of one record; while the
 * list reports counts, each cell is one more such request. A list that reports none is read whole,
 * once per row, and its records tallied by value: the total and every cell are then counted by dpx.
 */
export class PlaneCounter {
  private reportsCounts: boolean | undefined;

  constructor(
    private readonly session: Session,
    private readonly pageSize: number,
    private readonly by: string | undefined,
    private readonly events: Channel<CountEvent>,
    /** Counted only where this holds (a window the server will not filter by): every number is then dpx's. */
    private readonly keep?: (record: Record<string, unknown>) => boolean,
  ) {
    if (keep) this.reportsCounts = false;
  }

  async row(
    target: CountTarget,
    scope: Scope,
    base: Record<string, unknown> | undefined,
    cells: Cell[],
    answered: (column: number | undefined, answer: Answer) => void,
    signal: AbortSignal,
  ): Promise<{ total: Answer; columns: Answer[] }> {
    const tell =
      (column: number | undefined) =>
      (answer: Answer): Answer => {
        answered(column, answer);
        return answer;
      };
    const cellsByCount = () =>
      Promise.all(cells.map((cell) => this.cell(target, scope, cell.filter, signal).then(tell(cell.column))));
    if (this.reportsCounts === true) {
      const [total, columns] = await Promise.all([
        this.cell(target, scope, base, signal).then(tell(undefined)),
        cellsByCount(),
      ]);
      return { total, columns };
    }
    if (this.reportsCounts === false) return this.scan(target, scope, base, cells, tell, signal);
    // Whether the list reports counts is not known yet: the total is asked alone, and tells.
    let probe: Answer;
    try {
      const count = await this.serverCount(target, scope, base, signal);
      if (count === undefined) {
        this.noCounts(target);
        return this.scan(target, scope, base, cells, tell, signal);
      }
      this.reportsCounts = true;
      probe = { count };
    } catch (error) {
      probe = { error: toDpxError(error) };
    }
    return { total: tell(undefined)(probe), columns: await cellsByCount() };
  }

  /** The server's count for the scope, or (where it gives none) the records of every page counted. */
  private async cell(
    target: CountTarget,
    scope: Scope,
    filter: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<Answer> {
    try {
      const count = this.reportsCounts === false ? undefined : await this.serverCount(target, scope, filter, signal);
      if (count !== undefined) return { count };
      let counted = 0;
      const first = await listRequest(this.session, {
        ...target,
        ou: scope.ou,
        pageSize: this.pageSize,
        ...(filter === undefined ? {} : { filter: JSON.stringify(filter) }),
      });
      for await (const page of walkPages(this.session, first, { signal })) counted += this.kept(page.items).length;
      return { count: counted, counted: true };
    } catch (error) {
      return { error: toDpxError(error) };
    }
  }

  /** What a page of one record says the count is; undefined when the list does not say. */
  async serverCount(
    target: CountTarget,
    scope: Scope,
    filter: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<number | undefined> {
    const request = await listRequest(this.session, {
      ...target,
      ou: scope.ou,
      pageSize: 1,
      ...(filter === undefined ? {} : { filter: JSON.stringify(filter) }),
    });
    const response = await this.session.send(request, { signal, once: true });
    return reportedCount(response);
  }

  /** Every record of the scope read once: the total is their number, each cell those holding its value. */
  private async scan(
    target: CountTarget,
    scope: Scope,
    base: Record<string, unknown> | undefined,
    cells: Cell[],
    tell: (column: number | undefined) => (answer: Answer) => Answer,
    signal: AbortSignal,
  ): Promise<{ total: Answer; columns: Answer[] }> {
    const tally = new Map<string, number>();
    let total = 0;
    try {
      const first = await listRequest(this.session, {
        ...target,
        ou: scope.ou,
        pageSize: this.pageSize,
        ...(base === undefined ? {} : { filter: JSON.stringify(base) }),
      });
      for await (const page of walkPages(this.session, first, { signal })) {
        const records = this.kept(page.items);
        total += records.length;
        if (this.by === undefined) continue;
        for (const record of records) {
          const label = valueLabel(valueAt(record, this.by));
          tally.set(label, (tally.get(label) ?? 0) + 1);
        }
      }
    } catch (error) {
      const failed = { error: toDpxError(error) };
      return { total: tell(undefined)(failed), columns: cells.map((cell) => tell(cell.column)(failed)) };
    }
    return {
      total: tell(undefined)({ count: total, counted: true }),
      columns: cells.map((cell) => tell(cell.column)({ count: tally.get(cell.label) ?? 0, counted: true })),
    };
  }

  private kept(records: Record<string, unknown>[]): Record<string, unknown>[] {
    return this.keep === undefined ? records : records.filter(this.keep);
  }

  private noCounts(target: CountTarget): void {
    if (this.reportsCounts === false) return;
    this.reportsCounts = false;
    this.events.push({
      kind: 'notice',
      message:
        `${target.resource} at ${this.session.baseUrl} reports no total_count: ` +
        "counting by walking every page of each unit's list (numbers marked counted)",
    });
  }

  get knowsCounts(): boolean | undefined {
    return this.reportsCounts;
  }
}

/**
 * The count a page of one record gives: `total_count`; else, since each page holds one record,
 * `total_pages_count`; else none — unless the page is empty and last, which says 0 by itself. The total
 * is all a count usually needs, so the page (its items, and links to resolve) is read only without one.
 */
function reportedCount(answer: PageAnswer): number | undefined {
  const total = isObject(answer.body) ? envelopeCount(answer.body, 'total_count') : undefined;
  if (total !== undefined) return total;
  const page = readPage(answer);
  if (page.items.length === 0 && !page.links.has('next')) return 0;
  if (page.totalPages !== undefined && page.items.length === 1) return page.totalPages;
  return undefined;
}
