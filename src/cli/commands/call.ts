// `dpx call <resource> <operation-id>`: any operation of the index. A write is refused unless writes are
// allowed, and then sent only once confirmed (on a terminal, or by --yes); --dry-run sends nothing.
// The body is printed as sent, unless --fields or another format than json asks for its records: a list
// envelope is then printed as `dpx list` prints a page, and a record (or an array of them) keeps its shape
// in json and is a table, csv or ndjson of its records otherwise.

import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { SafetyError, UsageError } from '../../api/errors.js';
import { isObject } from '../../api/json.js';
import type { PreparedRequest } from '../../api/hal/operation.js';
import { isListEnvelope, readPage } from '../../api/session/pages.js';
import { confirmationLines, isWriteMethod, writeRefusal } from '../../api/security/safety.js';
import type { ApiResponse } from '../../api/wire/response.js';
import { visible } from '../../text/cells.js';
import { namedValues } from '../args.js';
import type { CommandContext } from '../context.js';
import { parseFields, selectFields } from '../format/fields.js';
import { createRecordSink, type ListFormat } from '../format/records.js';
import { DataWriter, isInteractive, type CliIO } from '../io.js';
import { jsonText, OUTPUT_FORMATS, outputFormat, tableWidth } from './output.js';

export async function callCommand(ctx: CommandContext, positionals: string[], options: Record<string, unknown>): Promise<number> {
  const [resource, operationId, ...extra] = positionals;
  if (resource === undefined || operationId === undefined || extra.length > 0) {
    throw new UsageError('dpx call takes a resource and an operation id', 'dpx operations <resource> lists the ids; e.g. dpx call users list_users');
  }
  const format = outputFormat(options['output'], OUTPUT_FORMATS.call);
  const fields = parseFields(options['fields']);
  const variables = namedValues('--var', options['var']);
  const query = namedValues('--query', options['query']);
  const body = typeof options['body'] === 'string' ? await bodyText(options['body']) : undefined;
  const dryRun = options['dry-run'] === true;

  const session = ctx.session({ needsToken: !dryRun });
  const request = await session.prepare({
    resource,
    operationId,
    variables,
    query,
    ...(typeof options['version'] === 'string' ? { version: options['version'] } : {}),
    ...(body === undefined ? {} : { body }),
  });
  if (body !== undefined) await warnAboutBody(ctx, request, body);

  if (dryRun) {
    const { toCurl } = await import('../../api/security/curl.js');
    const out = new DataWriter(ctx.io.stdout);
    try {
      await out.write(`${toCurl(request)}\n`);
    } finally {
      out.release();
    }
    return 0;
  }

  if (isWriteMethod(request.method)) await confirmWrite(ctx, request, options['yes'] === true);

  const response = await session.send(request);
  ctx.note(`${response.status} ${response.statusText} · ${Math.round(response.durationMs)} ms`);
  const out = new DataWriter(ctx.io.stdout);
  try {
    if (response.body !== undefined) await printBody(ctx, out, response, format, fields);
    else if (response.text !== '') await out.write(printableBody(response.text));
  } finally {
    out.release();
  }
  return 0;
}

/** A body that is not JSON, shown line by line with nothing in it a terminal would obey. */
function printableBody(text: string): string {
  const shown = visible(text.replace(/\r\n/g, '\n'), { lines: true });
  return shown.endsWith('\n') ? shown : `${shown}\n`;
}

async function printBody(ctx: CommandContext, out: DataWriter, response: ApiResponse, format: ListFormat, fields: string[] | undefined): Promise<void> {
  const { body } = response;
  const page = isListEnvelope(body) ? readPage(response) : undefined;
  const records = page?.items ?? (Array.isArray(body) ? body.filter(isObject) : isObject(body) ? [body] : undefined);
  // A scalar body has no fields to choose from.
  if (records === undefined) return out.write(jsonText(body, ctx.io));
  if (format === 'json') {
    if (fields === undefined) return out.write(jsonText(body, ctx.io));
    if (page === undefined) {
      // A record, or an array of records, keeps its shape.
      const selected = records.map((record) => selectFields(record, fields));
      return out.write(jsonText(Array.isArray(body) ? selected : selected[0], ctx.io));
    }
  }
  for (const warning of page?.warnings ?? []) ctx.warn(warning);
  const sink = createRecordSink(format, out, {
    width: tableWidth(ctx.io),
    pretty: ctx.io.stdout.isTTY === true,
    note: (message) => ctx.note(message),
    ...(fields === undefined ? {} : { fields }),
  });
  await sink.page(records);
  await sink.finish({
    pagesFetched: 1,
    ...(page?.totalCount === undefined ? {} : { totalCount: page.totalCount }),
    ...(page?.totalPages === undefined ? {} : { totalPages: page.totalPages }),
  });
}

async function bodyText(value: string): Promise<string> {
  let text = value;
  if (value.startsWith('@')) {
    const path = value.slice(1);
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read the body file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, 'give --body @FILE with a readable JSON file, or the JSON inline');
    }
  }
  try {
    JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, `e.g. --body '{"name":"x"}' or --body @body.json`);
  }
  return text;
}

/** A body that does not match the operation's known schema (the profile's, else dpx's) is worth a warning; the server decides. */
async function warnAboutBody(ctx: CommandContext, request: PreparedRequest, body: string): Promise<void> {
  const { loadBodySchema } = await import('../../api/operations/body.js');
  const schema = await loadBodySchema(request, ctx.settings.schemaDir);
  for (const problem of schema?.check(JSON.parse(body)) ?? []) ctx.warn(problem);
}

async function confirmWrite(ctx: CommandContext, request: PreparedRequest, yes: boolean): Promise<void> {
  const session = ctx.session();
  const refusal = writeRefusal(request.method, session.readOnly);
  if (refusal) throw refusal;
  if (yes) return;
  if (!isInteractive(ctx.io)) {
    throw new SafetyError(`refused to send ${request.method} ${request.operationId} unconfirmed: there is no terminal to ask on`, 'add --yes to confirm the write');
  }
  ctx.note(['about to send a write:', ...confirmationLines(request, { baseUrl: session.baseUrl }).map((line) => `  ${line}`)].join('\n'));
  if (!(await askYesNo(ctx.io, 'send it? [y/N] '))) {
    throw new SafetyError('not sent: the write was not confirmed', 'answer y to send it, or pass --yes');
  }
}

async function askYesNo(io: CliIO, question: string): Promise<boolean> {
  const input = io.stdin;
  if (!input) return false;
  const reader = createInterface({ input, output: io.stderr, terminal: false });
  try {
    // Input that ends before an answer (Ctrl-D) is a no.
    const closed = new Promise<string>((resolve) => reader.once('close', () => resolve('')));
    const answer = await Promise.race([reader.question(question), closed]);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    reader.close();
  }
}
