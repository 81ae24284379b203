// `dpx diff <resource> <id> --versions a,b | --ou A,B | --profiles a,b`: one record read twice — in two
// versions, two units or through two profiles — and the two documents side by side, aligned by field
// path (src/api/compare.ts, src/api/diff.ts).

import { compareRecord, type RecordSide } from '../../../api/case/compare.js';
import type { AlignedField, FieldState } from '../../../api/case/diff.js';
import { UsageError } from '../../../api/errors.js';
import { redactText, redactValue } from '../../../api/security/redact.js';
import type { CommandScope, PlaneInput } from '../command.js';
import { DIFFERENCES_FOUND } from '../../exit-codes.js';
import { renderTable } from '../../format/table.js';
import { DataWriter } from '../../io.js';
import { jsonText, outputFormat, tableWidth } from '../../options/output.js';
import { spec } from './spec.js';
import type { OptionValues } from '../../options/shared.js';

const AXES = ['versions', 'ou', 'profiles'] as const;
type Axis = (typeof AXES)[number];

export async function run(
  ctx: CommandScope,
  { positionals, options }: PlaneInput<OptionValues<typeof spec.options>>,
): Promise<number> {
  const [resource, id, ...extra] = positionals;
  if (resource === undefined || id === undefined || extra.length > 0) {
    throw new UsageError('dpx diff takes a resource and a record id', 'e.g. dpx diff users <id> --versions v1,v2');
  }
  const format = outputFormat(options['output'], spec.formats);
  const [leftSide, rightSide] = await chooseSides(ctx, options);
  const comparison = await compareRecord(resource, id, leftSide, rightSide);
  if (!comparison.complete) {
    // Each side that failed is named; the first failure is the command's error, a second one a warning.
    const failures = [comparison.left, comparison.right].flatMap((result) => ('error' in result ? [result] : []));
    for (const [index, failure] of failures.entries()) {
      ctx.note(`could not read the ${failure.side.label} side:`);
      if (index > 0) ctx.warn(failure.error.message);
    }
    throw failures[0]!.error;
  }
  const { left, right, rows } = comparison;

  const secrets = ctx.secrets();
  // The exit code reports the comparison: a reader that leaves early (`| head`) ends the output, not the work.
  const out = new DataWriter(ctx.io.stdout, { afterClose: 'discard' });
  try {
    if (format === 'json') {
      const document = {
        left: { label: leftSide.label, url: left.response.url },
        right: { label: rightSide.label, url: right.response.url },
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
  ctx.note(
    differing === 0
      ? 'the two documents are the same (links and ETags aside)'
      : summary(rows, leftSide.label, rightSide.label),
  );
  return options['exit-code'] === true && differing > 0 ? DIFFERENCES_FOUND : 0;
}

async function chooseSides(ctx: CommandScope, options: Record<string, unknown>): Promise<[RecordSide, RecordSide]> {
  // A single --ou is the unit both sides are read in; two are the units compared.
  const given = AXES.filter(
    (axis) => options[axis] !== undefined && (axis !== 'ou' || String(options[axis]).includes(',')),
  );
  if (given.length !== 1) {
    throw new UsageError(
      'dpx diff compares along one of --versions, --ou or --profiles',
      'e.g. --versions v1,v2, --ou <unit>,<unit> or --profiles eu,us',
    );
  }
  const axis = given[0] as Axis;
  const values = String(options[axis])
    .split(',')
    .map((value) => value.trim());
  if (values.length !== 2 || values.some((value) => value === '') || values[0] === values[1]) {
    throw new UsageError(
      `--${axis} takes two different values separated by a comma, not '${String(options[axis])}'`,
      `e.g. --${axis} ${axis === 'versions' ? 'v1,v2' : axis === 'ou' ? '<unit>,<unit>' : 'eu,us'}`,
    );
  }
  const [first, second] = values as [string, string];
  switch (axis) {
    case 'versions':
      return [
        { label: first, session: ctx.session(), version: first },
        { label: second, session: ctx.session(), version: second },
      ];
    case 'ou': {
      // Each unit by its id, name or path.
      const [left, right] = [await ctx.unitId(first), await ctx.unitId(second)];
      return [
        { label: first, session: ctx.session(), ou: left },
        { label: second, session: ctx.session(), ou: right },
      ];
    }
    case 'profiles':
      return [
        { label: first, session: await ctx.profileSession(first) },
        { label: second, session: await ctx.profileSession(second) },
      ];
  }
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
    .map(
      (state) => [rows.filter((row) => row.state === state).length, stateWord(state, left, right) || 'equal'] as const,
    )
    .filter(([count]) => count > 0)
    .map(([count, word]) => `${count} ${word}`)
    .join(' · ');
}

const JSON_STATES: Record<FieldState, string> = {
  equal: 'equal',
  changed: 'changed',
  'only-then': 'only-left',
  'only-now': 'only-right',
  'same-value': 'same-value',
};

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
