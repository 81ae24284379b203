// `dpx diff <resource> <id> --versions a,b | --ou A,B | --profiles a,b`: one record read twice — in two
// versions, two units or through two profiles — and the two documents side by side, aligned by field
// path (src/api/diff.ts).

import { alignDocuments, type AlignedField, type FieldState } from '../../api/diff.js';
import { UsageError } from '../../api/errors.js';
import { findReadOperation, resolveVersion } from '../../api/operation.js';
import { redactText, redactValue } from '../../api/redact.js';
import type { ApiResponse, Session } from '../../api/session.js';
import type { CommandContext } from '../context.js';
import { DIFFERENCES_FOUND } from '../exit-codes.js';
import { renderTable } from '../format/table.js';
import { DataWriter } from '../io.js';
import { jsonText, OUTPUT_FORMATS, outputFormat, tableWidth } from './output.js';

const AXES = ['versions', 'ou', 'profiles'] as const;
type Axis = (typeof AXES)[number];

interface Side {
  label: string;
  session: Session;
  version?: string;
  ou?: string;
}

export async function diffCommand(ctx: CommandContext, positionals: string[], options: Record<string, unknown>): Promise<number> {
  const [resource, id, ...extra] = positionals;
  if (resource === undefined || id === undefined || extra.length > 0) {
    throw new UsageError('dpx diff takes a resource and a record id', 'e.g. dpx diff users <id> --versions v1,v2');
  }
  const format = outputFormat(options['output'], OUTPUT_FORMATS.diff);
  const sides = await chooseSides(ctx, options);
  const settled = await Promise.allSettled(sides.map((side) => readRecord(side, resource, id)));
  settled.forEach((result, index) => {
    if (result.status === 'rejected') ctx.note(`could not read the ${sides[index]!.label} side:`);
  });
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  const [left, right] = settled.map((result) => (result as PromiseFulfilledResult<ApiResponse>).value) as [ApiResponse, ApiResponse];
  const [leftSide, rightSide] = sides as [Side, Side];
  const rows = alignDocuments(left.body, right.body);

  const secrets = ctx.secrets();
  const out = new DataWriter(ctx.io.stdout);
  try {
    if (format === 'json') {
      const document = {
        left: { label: leftSide.label, url: left.url },
        right: { label: rightSide.label, url: right.url },
        fields: rows.map(jsonRow),
      };
      await out.write(jsonText(redactValue(document, secrets), ctx.io));
    } else {
      await out.write(redactText(diffTable(rows, leftSide.label, rightSide.label, tableWidth(ctx.io)), secrets));
    }
  } finally {
    out.release();
  }
  const differing = rows.filter((row) => row.state !== 'equal').length;
  ctx.note(differing === 0 ? 'the two documents are the same (links and ETags aside)' : summary(rows, leftSide.label, rightSide.label));
  return options['exit-code'] === true && differing > 0 ? DIFFERENCES_FOUND : 0;
}

async function chooseSides(ctx: CommandContext, options: Record<string, unknown>): Promise<Side[]> {
  // A single --ou is the unit both sides are read in; two are the units compared.
  const given = AXES.filter((axis) => options[axis] !== undefined && (axis !== 'ou' || String(options[axis]).includes(',')));
  if (given.length !== 1) {
    throw new UsageError('dpx diff compares along one of --versions, --ou or --profiles', 'e.g. --versions v1,v2, --ou <unit>,<unit> or --profiles eu,us');
  }
  const axis = given[0] as Axis;
  const values = String(options[axis]).split(',').map((value) => value.trim());
  if (values.length !== 2 || values.some((value) => value === '') || values[0] === values[1]) {
    throw new UsageError(`--${axis} takes two different values separated by a comma, not '${String(options[axis])}'`, `e.g. --${axis} ${axis === 'versions' ? 'v1,v2' : axis === 'ou' ? '<unit>,<unit>' : 'eu,us'}`);
  }
  switch (axis) {
    case 'versions':
      return values.map((version) => ({ label: version, session: ctx.session(), version }));
    case 'ou':
      return values.map((ou) => ({ label: ou, session: ctx.session(), ou }));
    case 'profiles':
      return Promise.all(values.map(async (profile) => ({ label: profile, session: await ctx.profileSession(profile) })));
  }
}

/** The record through the resource's read operation (a GET with one path variable) in the side's version and unit. */
async function readRecord(side: Side, resource: string, id: string): Promise<ApiResponse> {
  const catalog = await side.session.catalog();
  const { resource: found, version } = resolveVersion(catalog, { resource, ...(side.version === undefined ? {} : { version: side.version }) });
  const read = findReadOperation(found, version.version)?.operation;
  if (!read) {
    throw new UsageError(`${found.name} ${version.version} has no operation that reads one record`, 'dpx diff needs a GET operation whose href takes the record id');
  }
  const request = await side.session.prepare({
    resource: found.name,
    version: version.version,
    operationId: read.id,
    variables: { [read.pathVariables[0]!]: id },
    ...(side.ou === undefined ? {} : { ou: side.ou }),
  });
  return side.session.send(request);
}

function stateWord(state: FieldState, left: string, right: string): string {
  switch (state) {
    case 'equal':
      return '';
    case 'changed':
      return 'changed';
    case 'only-then':
      return `only ${left}`;
    case 'only-now':
      return `only ${right}`;
    case 'same-value':
      return 'same value';
  }
}

/** Field, the two values, and what differs; a paired field reads `username / email`. */
function diffTable(rows: AlignedField[], left: string, right: string, width: number): string {
  const records = rows.map((row) => ({
    field: row.nowPath === undefined ? row.path : `${row.path} / ${row.nowPath}`,
    [left]: 'then' in row ? row.then : undefined,
    [right]: 'now' in row ? row.now : undefined,
    diff: stateWord(row.state, left, right),
  }));
  return renderTable(records, width, ['field', left, right, 'diff']).text;
}

/** `1 equal · 1 changed · 6 same value · 2 only v1 · 3 only v2`, leaving out the states no field is in. */
function summary(rows: AlignedField[], left: string, right: string): string {
  const order: FieldState[] = ['equal', 'changed', 'same-value', 'only-then', 'only-now'];
  return order
    .map((state) => [rows.filter((row) => row.state === state).length, stateWord(state, left, right) || 'equal'] as const)
    .filter(([count]) => count > 0)
    .map(([count, word]) => `${count} ${word}`)
    .join(' · ');
}

const JSON_STATES: Record<FieldState, string> = { equal: 'equal', changed: 'changed', 'only-then': 'only-left', 'only-now': 'only-right', 'same-value': 'same-value' };

/** `{ path, right_path?, state, left?, right? }`: a side the field is absent from has no key. */
function jsonRow(row: AlignedField): Record<string, unknown> {
  return {
    path: row.path,
    ...(row.nowPath === undefined ? {} : { right_path: row.nowPath }),
    state: JSON_STATES[row.state],
    ...('then' in row ? { left: row.then } : {}),
    ...('now' in row ? { right: row.now } : {}),
  };
}
