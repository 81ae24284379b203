// `dpx replay FILE.har`: the case's reads sent again, each in its recorded unit and version, to the
// current control plane (--profile, --base-url), each answer compared with the recorded one
// (src/api/case/replay.ts). `--ou` asks every read in that unit instead, on purpose. The table is
// written as the answers come; -o json is one document at the end. A reader that leaves (`| head`) ends
// the output, not the replay: --exit-code still says whether anything differed.

import { hasDifferences, type KeyedRecord, type RecordChange } from '../../../api/case/diff.js';
import { UsageError } from '../../../api/errors.js';
import { OutputClosed } from '../../io.js';
import { readTrail } from '../../../api/case/har.js';
import { recordLabel } from '../../../api/hal/records.js';
import { redactText, redactValue } from '../../../api/security/redact.js';
import { planReplay, replayTrail, type ReplayResult, type SkippedRequest } from '../../../api/case/replay.js';
import { oneLine, truncate } from '../../../text/cells.js';
import type { CommandScope, PlaneInput } from '../command.js';
import { DIFFERENCES_FOUND } from '../../exit-codes.js';
import { tableCell } from '../../format/cells.js';
import { DataWriter } from '../../io.js';
import { jsonText, outputFormat, tableWidth } from '../../options/output.js';
import { spec } from './spec.js';
import type { OptionValues } from '../../options/shared.js';

export async function run(
  ctx: CommandScope,
  { positionals, options, ou }: PlaneInput<OptionValues<typeof spec.options>>,
): Promise<number> {
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) {
    throw new UsageError('dpx replay takes one trail file', 'e.g. dpx replay case-1234.har --ou <unit>');
  }
  const format = outputFormat(options['output'], spec.formats);
  const trail = await readTrail(file, ctx.settings.ouHeader === undefined ? {} : { ouHeader: ctx.settings.ouHeader });
  for (const warning of trail.warnings) ctx.warn(warning);
  const session = ctx.session();
  // Whatever a browser recorded with the trail is masked like the current token.
  const secrets = [...ctx.secrets(), ...trail.credentials];
  const { skipped } = planReplay(trail, session.baseUrl);
  // Like with like: each read in its recorded unit, unless a unit is asked for by name, or the replay
  // goes to another control plane whose profile names one.
  const unit = ou ?? (session.baseUrl !== trail.baseUrl ? ctx.settings.ou : undefined);

  // The exit code reports the comparison: a reader that leaves early (`| head`) ends the output, not the work.
  const out = new DataWriter(ctx.io.stdout, { afterClose: 'discard' });
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.io.signal?.addEventListener('abort', onAbort);
  const results: ReplayResult[] = [];
  let replayed = 0;
  let differing = 0;
  try {
    const write = async (text: string): Promise<void> => {
      if (out.isClosed) return;
      await out.write(text).catch((error: unknown) => {
        if (!(error instanceof OutputClosed)) throw error;
      });
    };
    for await (const result of replayTrail(session, trail, {
      signal: stop.signal,
      ...(unit === undefined ? {} : { unit }),
    })) {
      replayed += 1;
      if (hasDifferences(result)) differing += 1;
      if (format === 'json') results.push(result);
      else await write(redactText(resultLines(result, session.baseUrl, tableWidth(ctx.io)), secrets));
    }
    if (format === 'json') {
      await write(jsonText(redactValue({ requests: results.map(jsonResult), skipped }, secrets), ctx.io));
    } else if (skipped.length > 0) {
      await write(redactText(skippedLines(skipped, session.baseUrl), secrets));
    }
  } finally {
    ctx.io.signal?.removeEventListener('abort', onAbort);
    out.release();
  }
  ctx.note(
    `${replayed} request${replayed === 1 ? '' : 's'} replayed against ${session.baseUrl} (${unit ? `unit ${unit}` : 'each in its recorded unit'}): ${differing} differ${skipped.length > 0 ? ` · ${skipped.length} skipped` : ''}`,
  );
  return options['exit-code'] === true && differing > 0 ? DIFFERENCES_FOUND : 0;
}

/** `GET /tasks?limit=5  200 → 200  1 added · 1 changed`, then one line per record added, removed or changed. */
function resultLines(result: ReplayResult, baseUrl: string, width: number): string {
  const { request } = result;
  const counts = [
    result.added.length > 0 ? `${result.added.length} added` : '',
    result.removed.length > 0 ? `${result.removed.length} removed` : '',
    result.changed.length > 0 ? `${result.changed.length} changed` : '',
  ].filter(Boolean);
  const uncompared = result.notCompared === undefined ? '' : `not compared (${result.notCompared})`;
  const verdict = hasDifferences(result) ? [...counts, uncompared].filter(Boolean).join(' · ') : uncompared || 'same';
  const lines = [
    `${request.method} ${relative(request.url, baseUrl)}  ${result.thenStatus} → ${result.nowStatus}${result.error ? ` (${result.error})` : ''}  ${verdict}`.trimEnd(),
  ];
  for (const record of result.added) lines.push(`  + ${recordLine(record)}`);
  for (const record of result.removed) lines.push(`  - ${recordLine(record)}`);
  for (const change of result.changed) lines.push(`  ~ ${changeLine(change)}`);
  // Ids, labels, paths and URLs come from the trail and the server: each line is made visible whole.
  return lines.map((line) => `${truncate(oneLine(line), width)}\n`).join('');
}

function recordLine({ id, record }: KeyedRecord): string {
  const label = recordLabel(record);
  return label === undefined || label === id ? id : `${id}  ${label}`;
}

function changeLine(change: RecordChange): string {
  const value = (side: unknown, present: boolean) => (present ? tableCell(side) || '""' : '—');
  return `${change.id}  ${change.fields.map((field) => `${field.path}: ${value(field.then, 'then' in field)} → ${value(field.now, 'now' in field)}`).join(' · ')}`;
}

function skippedLines(skipped: SkippedRequest[], baseUrl: string): string {
  return ['skipped:', ...skipped.map((entry) => `  ${entry.method} ${relative(entry.url, baseUrl)}  ${entry.reason}`)]
    .map((line) => `${oneLine(line)}\n`)
    .join('');
}

function relative(url: string, baseUrl: string): string {
  return url.startsWith(baseUrl) ? url.slice(baseUrl.length) || '/' : url;
}

/** The issue's schema: method, url, then/now status, records added/removed ({ id, label }), changed ({ id, fields }). */
function jsonResult(result: ReplayResult): Record<string, unknown> {
  const record = ({ id, record: item }: KeyedRecord) => {
    const label = recordLabel(item);
    return label === undefined || label === id ? { id } : { id, label };
  };
  return {
    method: result.request.method,
    url: result.request.url,
    then: { status: result.thenStatus },
    now: { status: result.nowStatus, ...(result.error === undefined ? {} : { error: result.error }) },
    added: result.added.map(record),
    removed: result.removed.map(record),
    changed: result.changed,
    ...(result.notCompared === undefined ? {} : { not_compared: result.notCompared }),
  };
}
