// `dpx call <resource> <operation-id> [ID]`: any operation of the index. A write is refused unless writes
// are allowed, and then sent only once confirmed: on a terminal after the exact request is shown (a DELETE
// by typing the id it deletes), without one by --yes (a DELETE also by --confirm-id ID). --dry-run sends
// nothing. A body that does not fit the operation's schema is sent only after a second, explicit yes.
// The body is printed as sent, unless --fields or another format than json asks for its records: a list
// envelope is then printed as `dpx list` prints a page, and a record (or an array of them) keeps its shape
// in json and is a table, csv or ndjson of its records otherwise. A 202 names its task; --wait follows it,
// and prints the final task as the body would be printed (-o, --fields).
// A body may carry comments (JSON with comments, as the template has them): what is sent is plain JSON,
// and the confirmation shows it. --edit opens the body in $EDITOR, started from --body or else from the
// template that names every field of the operation's schema (template.ts).

import { readFile } from 'node:fs/promises';
import { UsageError } from '../../../api/errors.js';
import { mayHoldInexactNumbers, parseExact } from '../../../api/hal/exact-json.js';
import { isObject } from '../../../api/json.js';
import type { Catalog } from '../../../api/hal/catalog.js';
import { resolveOperation, type PreparedRequest } from '../../../api/hal/operation.js';
import { isListEnvelope, readPage } from '../../../api/session/pages.js';
import { checkNamedValues, checkNoControlCharacter } from '../../../api/security/control-chars.js';
import { checkHeaderValues } from '../../../api/security/header-values.js';
import type { ApiResponse } from '../../../api/wire/response.js';
import { visible } from '../../../api/visible.js';
import { checkViewOperation } from '../../../config/view-policy.js';
import { namedValues } from '../../options/values.js';
import type { CommandScope, PlaneInput } from '../command.js';
import { csvLineEnd, type CsvLineEnd } from '../../format/csv.js';
import { parseFields, selectFields } from '../../format/fields.js';
import { createRecordSink, type ListFormat } from '../../format/records.js';
import { confirmRequest } from './confirm.js';
import { DataWriter, type CliIO } from '../../io.js';
import { jsonText, outputFormat, tableWidth } from '../../options/output.js';
import { spec } from './spec.js';
import type { OptionValues } from '../../options/shared.js';

export async function run(
  ctx: CommandScope,
  { positionals, options }: PlaneInput<OptionValues<typeof spec.options>>,
): Promise<number> {
  const [resource, operationId, ...extra] = positionals;
  if (resource === undefined || operationId === undefined || extra.length > 1) {
    throw new UsageError(
      'dpx call takes a resource, an operation id, and at most one id',
      'dpx operations <resource> lists the ids; e.g. dpx call users list_users, dpx call tasks get_task <task_id>',
    );
  }
  const format = outputFormat(options['output'], spec.formats);
  const fields = parseFields(options['fields']);
  const lineEnd = csvLineEnd(options);
  const variables = namedValues('--var', options['var']);
  const query = namedValues('--query', options['query']);
  const given = typeof options['body'] === 'string' ? await bodyText(ctx.io, options['body']) : undefined;
  const dryRun = options['dry-run'] === true;
  // Before anything is sent, the index included: an id or a value with a control character in it.
  if (extra[0] !== undefined) checkNoControlCharacter(extra[0], 'the id');
  checkNamedValues(variables, query);
  const version = typeof options['version'] === 'string' ? options['version'] : undefined;

  const session = ctx.session({ needsToken: !dryRun });
  const catalog = await session.catalog();
  const resolved = resolveOperation(catalog, { resource, operationId, ...(version === undefined ? {} : { version }) });
  const { operation } = resolved;
  if (ctx.view !== undefined) checkViewOperation(operation.method, `${resource} ${operation.id}`, ctx.view);
  const [positional] = extra;
  if (positional !== undefined) {
    const [only, ...more] = operation.pathVariables;
    if (only === undefined || more.length > 0) {
      throw new UsageError(
        `${operation.id} takes ` +
          (operation.pathVariables.length === 0
            ? 'no path variable'
            : `${operation.pathVariables.length} path variables`) +
          `, so '${positional}' cannot stand for one`,
        operation.pathVariables.length === 0
          ? 'leave the extra word out'
          : `give each with --var: ${operation.pathVariables.map((name) => `--var ${name}=…`).join(' ')}`,
      );
    }
    if (variables[only] !== undefined && variables[only] !== positional) {
      throw new UsageError(
        `${only} is given twice: '${positional}' and --var ${only}=${variables[only]}`,
        'give it once',
      );
    }
    variables[only] = positional;
  }

  const body = await requestBody(ctx, resolved, given, options['edit'] === true, { catalog, variables });
  const request = await session.prepare(
    {
      resource,
      operationId,
      variables,
      query,
      ...(version === undefined ? {} : { version }),
      ...(body === undefined ? {} : { body }),
    },
    resolved,
  );
  // Before anything is asked or sent: a unit with a line break in it is the user's to fix.
  checkHeaderValues(request.headers, { [session.ouHeader.toLowerCase()]: 'the organizational unit' });
  const problems = body === undefined ? [] : await bodyProblems(ctx, request, body);
  for (const problem of problems) ctx.warn(problem);

  if (dryRun) {
    const { toCurl } = await import('../../../api/security/curl.js');
    const out = new DataWriter(ctx.io.stdout);
    try {
      await out.write(`${toCurl(request, ctx.settings.tokenRef)}\n`);
    } finally {
      out.release();
    }
    return 0;
  }

  await confirmRequest(ctx, session, request, {
    yes: options['yes'] === true,
    sendInvalid: options['send-invalid'] === true,
    problems,
    ...(typeof options['confirm-id'] === 'string' ? { confirmId: options['confirm-id'] } : {}),
  });

  const response = await session.send(request);
  ctx.note(`${response.status} ${response.statusText} · ${Math.round(response.durationMs)} ms`);
  const out = new DataWriter(ctx.io.stdout);
  try {
    if (options['include'] === true) await out.write(statusAndHeaders(response));
    const { findFollowableTask, isTaskLike } = await import('../../../api/operations/task.js');
    const followable = findFollowableTask(response, catalog);
    if (response.status === 202) noteStarted(ctx, response, followable);
    if (options['wait'] === true) {
      // A 202's task, or a task read directly (`dpx call tasks get_task ID --wait`).
      const own =
        followable === undefined && request.method === 'GET' && isTaskLike(response.body) ? request : undefined;
      if (followable || own) {
        const { waitForTask } = await import('./wait.js');
        const { taskRequest } = await import('../../../api/operations/task.js');
        const taskReq = own ?? (await taskRequest(session, followable!));
        // The final task is printed as the body would be: -o and --fields hold for it too.
        const print = (task: Record<string, unknown>) => printBody(ctx, out, task, undefined, format, fields, lineEnd);
        return await waitForTask(ctx, session, taskReq, print, followable?.taskId);
      }
      ctx.warn(
        response.status === 202
          ? 'the response names no task that dpx can follow; --wait has nothing to wait for'
          : `--wait follows the task a 202 names; this was a ${response.status}, with nothing to follow`,
      );
    }
    if (response.body !== undefined) await printBody(ctx, out, asSent(response), response, format, fields, lineEnd);
    else if (response.text !== '') await out.write(printableBody(response.text));
  } finally {
    out.release();
  }
  return 0;
}

/** The body as the server sent it: its numbers with their own digits (exact-json.ts). */
function asSent(response: ApiResponse): unknown {
  return mayHoldInexactNumbers(response.text) ? parseExact(response.text) : response.body;
}

/** A body that is not JSON, shown line by line with nothing in it a terminal would obey. */
function printableBody(text: string): string {
  const shown = visible(text.replace(/\r\n/g, '\n'), { lines: true });
  return shown.endsWith('\n') ? shown : `${shown}\n`;
}

/** `HTTP 202 Accepted` and every response header, then a blank line: what `-i` puts before the body. */
function statusAndHeaders(response: ApiResponse): string {
  const lines = [
    `HTTP ${response.status} ${visible(response.statusText)}`.trimEnd(),
    ...Object.entries(response.headers).map(([name, value]) => `${visible(name)}: ${visible(value)}`),
  ];
  return `${lines.join('\n')}\n\n`;
}

/** A 202 says where its work can be watched: the Location, and the task and how to follow it. */
function noteStarted(
  ctx: CommandScope,
  response: ApiResponse,
  followable: { taskId?: string; resource: string } | undefined,
): void {
  const location = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'location')?.[1];
  if (location) ctx.note(`Location: ${visible(location)}`);
  if (followable?.taskId)
    ctx.note(`task ${followable.taskId} (${followable.resource}) started; --wait follows it to its end`);
  else if (followable) ctx.note(`a ${followable.resource} task started; --wait follows it to its end`);
}

/** A body (a response's, or the final task --wait read) as -o and --fields ask; `response` reads a list envelope's page. */
async function printBody(
  ctx: CommandScope,
  out: DataWriter,
  body: unknown,
  response: ApiResponse | undefined,
  format: ListFormat,
  fields: string[] | undefined,
  lineEnd: CsvLineEnd,
): Promise<void> {
  const page = response && isListEnvelope(body) ? readPage(response) : undefined;
  const embedded = isObject(body) && isObject(body['_embedded']) ? body['_embedded']['items'] : undefined;
  // A page's records from the body as printed (its numbers as sent), the page's own when they differ in count.
  const pageItems =
    Array.isArray(embedded) && embedded.length === page?.items.length ? embedded.filter(isObject) : page?.items;
  const records = pageItems ?? (Array.isArray(body) ? body.filter(isObject) : isObject(body) ? [body] : undefined);
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
    lineEnd,
    width: tableWidth(ctx.io),
    pretty: ctx.io.stdout.isTTY === true,
    note: (message) => ctx.note(message),
    ...(fields === undefined ? {} : { fields }),
  });
  await sink.page({ items: records });
  await sink.finish({
    pagesFetched: 1,
    ...(page?.totalCount === undefined ? {} : { totalCount: page.totalCount }),
    ...(page?.totalPages === undefined ? {} : { totalPages: page.totalPages }),
  });
}

/** The body as given: inline, `@FILE`, or `-` for standard input; checked as JSON (comments allowed) before anything is asked. */
async function bodyText(io: CliIO, value: string): Promise<string> {
  let text = value;
  if (value === '-') {
    if (!io.stdin)
      throw new UsageError(
        '--body - reads the body from standard input, and there is none',
        'pipe the body in: … | dpx call R OP --body -',
      );
    text = await readAll(io.stdin);
  } else if (value.startsWith('@')) {
    const path = value.slice(1);
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new UsageError(
        `cannot read the body file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        'give --body @FILE with a readable JSON file, or the JSON inline',
      );
    }
  }
  const { parseBodyText } = await import('../../../api/operations/jsonc.js');
  const parsed = parseBodyText(text);
  if (!parsed.ok)
    throw new UsageError(
      `--body is not valid JSON: ${parsed.message}`,
      `e.g. --body '{"name":"x"}', --body @body.json, or --body - to read it from standard input`,
    );
  return text;
}

/**
 * The body that goes, as JSON: --body as given (comments allowed, and taken out), or what was written in
 * $EDITOR with --edit, started from --body or else from the template that names every field of the
 * operation's schema. A body the operation has a schema for and was not given is pointed to --edit.
 */
async function requestBody(
  ctx: CommandScope,
  resolved: ReturnType<typeof resolveOperation>,
  given: string | undefined,
  edit: boolean,
  addressed: { catalog: Catalog; variables: Record<string, string> },
): Promise<string | undefined> {
  const { operation } = resolved;
  const { carriesBody, loadBodySchema } = await import('../../../api/operations/body.js');
  const { isBlankBody, parseBodyText, sendableBody } = await import('../../../api/operations/jsonc.js');
  const target = { resource: resolved.resource.name, version: resolved.version.version, operationId: operation.id };
  const command = `dpx call ${target.resource} ${operation.id}`;
  if (!edit) {
    if (given !== undefined) return sendableBody(given);
    if (carriesBody(operation.method) && (await loadBodySchema(target, ctx.settings.schemaDir))) {
      ctx.note(
        `no body given: ${command} --edit starts one in $EDITOR that names every field of its schema (--help shows it)`,
      );
    }
    return undefined;
  }
  if (!carriesBody(operation.method))
    throw new UsageError(`--edit edits a body, and ${operation.method} sends none`, 'leave --edit out');
  const schema = await loadBodySchema(target, ctx.settings.schemaDir);
  const { bodyTemplate } = await import('../../../api/operations/template.js');
  // An update of a record starts from the record, as the explorer's form does.
  const { recordEdit } = await import('../../../api/operations/edit-record.js');
  const fromRecord =
    given === undefined && schema
      ? await recordEdit(
          ctx.session(),
          { ...resolved, catalog: addressed.catalog, version: resolved.version.version },
          addressed.variables,
          schema.schema,
        )
      : undefined;
  const start =
    given ??
    (fromRecord
      ? `// ${command}: the record as it is now; what you change is sent\n${fromRecord.start}\n`
      : schema
        ? `// ${command}\n${bodyTemplate(schema.schema)}\n`
        : `// ${command}: no schema is known for this body; write it as JSON.\n{\n}\n`);
  const { editInEditor } = await import('../../../ui/editor.js');
  const edited = await editInEditor(start, ctx.io.env, { extension: '.jsonc' });
  if (isBlankBody(edited))
    throw new UsageError(
      'the body is empty: nothing was sent',
      'write the body (or uncomment its fields) in the editor, and save',
    );
  const parsed = parseBodyText(edited);
  if (!parsed.ok) {
    // The edit is kept: the user's work is not lost to a missing comma.
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const kept = join(await mkdtemp(join(tmpdir(), 'dpx-body-')), 'body.jsonc');
    await writeFile(kept, edited, 'utf8');
    throw new UsageError(
      `the edited body is not valid JSON: ${parsed.message}`,
      `it is kept in ${kept}: fix it there and send it with ${command} --body @${kept} (add --edit to fix it in $EDITOR)`,
    );
  }
  return fromRecord ? fromRecord.toSend(edited) : sendableBody(edited);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Every way the body does not match the operation's known schema (the profile's, else dpx's). */
async function bodyProblems(ctx: CommandScope, request: PreparedRequest, body: string): Promise<string[]> {
  const { loadBodySchema } = await import('../../../api/operations/body.js');
  const schema = await loadBodySchema(request, ctx.settings.schemaDir);
  return schema?.check(JSON.parse(body)) ?? [];
}
