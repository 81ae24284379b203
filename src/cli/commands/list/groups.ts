// `dpx list … --group-by FIELD[,FIELD…]`: every record read (the walk is --all), one row per group with
// its count, largest first. Over a merged list each record counts once, in the unit it belongs to, named
// from its own region's units (src/api/fanout/groups.ts). stderr says how many records and requests the
// answer took: a group-by is never a sample.
import { UsageError } from '../../../api/errors.js';
import { findUnitField, GroupCounter, TENANT_FIELD, UNIT_FIELD, UnitPlaces } from '../../../api/fanout/groups.js';
import { loadUnits } from '../../../api/fanout/units.js';
import type { Session } from '../../../api/session/session.js';
import { formatCount } from '../../../text/cells.js';
import type { CommandScope } from '../command.js';
import { csvLine, type CsvLineEnd } from '../../format/csv.js';
import { jsonString } from '../../format/json.js';
import type { ListFormat, RecordSink } from '../../format/records.js';
import { renderTable } from '../../format/table.js';
import type { DataWriter } from '../../io.js';
import { jsonText, tableWidth } from '../../options/output.js';

export function parseGroupBy(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  const fields = value
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '');
  if (fields.length === 0)
    throw new UsageError(
      '--group-by needs a field',
      `e.g. --group-by status, or --group-by ${TENANT_FIELD},error_code`,
    );
  return fields;
}

/** A sink that counts one control plane's groups instead of printing records, and prints them when the walk ends. */
export async function groupingSink(
  ctx: CommandScope,
  session: Session,
  fields: string[],
  format: ListFormat,
  out: DataWriter,
  lineEnd: CsvLineEnd,
): Promise<RecordSink> {
  const wantsUnits = fields.includes(UNIT_FIELD) || fields.includes(TENANT_FIELD);
  const units = wantsUnits ? await loadUnits(session) : undefined;
  if (wantsUnits && units === undefined)
    throw new UsageError(
      `${UNIT_FIELD} and ${TENANT_FIELD} need the control plane's list of units, and its index offers none`,
      'group by a field of the records instead',
    );
  const places = units === undefined ? undefined : new UnitPlaces(units);
  let unitField: string | undefined;
  const counter = new GroupCounter(fields);
  let located = false;
  return {
    async page({ items }) {
      if (!located && places !== undefined && items.length > 0) {
        unitField = findUnitField(items, places);
        located = true;
        if (unitField !== undefined) ctx.note(`${UNIT_FIELD} is each record's ${unitField}`);
      }
      for (const item of items) {
        const unit = unitField === undefined ? undefined : item[unitField];
        counter.add(item, { ...(typeof unit === 'string' ? { unit } : {}), ...(places ? { places } : {}) });
      }
    },
    async finish(summary) {
      await printGroups(ctx, counter, { format, lineEnd }, out, summary.pagesFetched, session.traffic.requests);
    },
  };
}

/**
 * The groups counted, as the format prints them; stderr says how many records and requests they took.
 * Across regions each group leads with its profile.
 */
export async function printGroups(
  ctx: CommandScope,
  counter: GroupCounter,
  { format, lineEnd }: { format: ListFormat; lineEnd: CsvLineEnd },
  out: DataWriter,
  pagesFetched: number,
  requests: number,
): Promise<void> {
  const groups = counter.result();
  ctx.note(
    `${formatCount(counter.records)} records in ${formatCount(groups.length)} groups, ` +
      `from ${formatCount(pagesFetched)} pages (${formatCount(requests)} requests)`,
  );
  const rows = groups.map((group) => ({ ...group.key, count: group.count }));
  const columns = [...counter.keyFields, 'count'];
  if (format === 'json')
    await out.write(jsonText({ groups, records: counter.records, pages_fetched: pagesFetched, requests }, ctx.io));
  else if (format === 'ndjson') for (const group of groups) await out.write(`${jsonString(group)}\n`);
  else if (format === 'csv')
    await out.write(
      [
        csvLine(columns, lineEnd),
        ...rows.map((row) =>
          csvLine(
            columns.map((column) => row[column as keyof typeof row]),
            lineEnd,
          ),
        ),
      ].join(''),
    );
  else await out.write(`${renderTable(rows, tableWidth(ctx.io), columns).text}\n`);
}
