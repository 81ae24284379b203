// What came back: status, headers, and the body as a tree or raw JSON (`y`); an error as its
// `[code] message` lines; a 202 that names a task offers `t` to follow it.
import { Box, Text } from 'ink';
import { ApiError, toDpxError, type DpxError } from '../../../api/errors.js';
import { isObject } from '../../../api/json.js';
import type { PreparedRequest } from '../../../api/hal/operation.js';
import { findFollowableTask, taskRequest, type FollowableTask } from '../../../api/operations/task.js';
import type { ApiResponse } from '../../../api/wire/response.js';
import { parseVendorMediaType } from '../../../api/media.js';
import { isWriteMethod } from '../../../api/security/safety.js';
import { oneLine, truncate, wrapLines } from '../../../text/cells.js';
import { share } from '../../layout.js';
import { httpStatusTone, Tinted } from '../../components/theme.js';
import { errorInfo } from '../../nav/problems.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import { flattenTree } from '../../tree.js';
import { formatExact, summarise } from '../../values.js';
import type { Flow } from './flow.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    response: ResponseParams;
  }
}

export interface ResponseParams {
  flow: Flow;
  request: PreparedRequest;
}

export interface ResponseState extends ScreenBase, ResponseParams {
  response?: ApiResponse;
  failure?: DpxError;
  followable?: FollowableTask;
  raw: boolean;
  top: number;
}

type Ctx = ScreenContext<ResponseState>;

/** `[code] message` lines from an `errors` envelope in a body, or none. */
export function errorLines(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body['errors'])) return [];
  return body['errors'].map((entry) =>
    isObject(entry)
      ? `[${String(entry['error_code'] ?? entry['code'] ?? '?')}] ${oneLine(String(entry['error_message'] ?? entry['message'] ?? ''))}`
      : oneLine(String(entry)),
  );
}

function bodyLines(response: ApiResponse, raw: boolean, width: number, now: number): string[] {
  const { body, text } = response;
  if (raw || (!isObject(body) && !Array.isArray(body))) {
    const shown = body === undefined || body === null ? text : JSON.stringify(body, null, 2);
    return shown === '' ? ['(no body)'] : shown.split('\n');
  }
  const links = isObject(body) && isObject(body['_links']) ? Object.keys(body['_links']) : [];
  const lines = flattenTree(body, new Set()).map((line) =>
    truncate(
      `${'  '.repeat(line.depth)}${line.label}: ${line.container ? summarise(line.value) : formatExact(line.value, now).text}`,
      width,
    ),
  );
  return links.length > 0 ? [...lines, `_links: ${links.join(', ')}`] : lines;
}

/** How the rows are shared: status and the footer, error lines, the task offer, some of the body, then the headers (which give way first), then the rest of the body. */
function layout(state: ResponseState, height: number, width: number, now: number) {
  const response = state.response;
  const errors = response ? errorLines(response.body) : [];
  const headerNames = response ? Object.keys(response.headers).sort() : [];
  const lines = response ? bodyLines(response, state.raw, width, now) : [];
  const follow = state.followable ? 1 : 0;
  const [, , errorRoom = 0, , bodyLeast = 0, headerRoom = 0, bodyMore = 0] = share(height, [
    { least: 1, most: 1 },
    { least: 1, most: 1 },
    { least: Math.min(1, errors.length), most: errors.length },
    { least: follow, most: follow },
    { least: Math.min(3, lines.length), most: Math.min(3, lines.length) },
    { least: 0, most: headerNames.length },
    { least: 0, most: Math.max(0, lines.length - 3) },
  ]);
  // Headers that do not all fit leave a line to say how many more there are.
  const headers = headerNames.length > headerRoom ? headerNames.slice(0, Math.max(0, headerRoom - 1)) : headerNames;
  const shownErrors =
    errors.length <= errorRoom
      ? errors
      : errorRoom <= 1
        ? [`${errors[0]} (and ${errors.length - 1} more)`]
        : [...errors.slice(0, errorRoom - 1), `… ${errors.length - errorRoom + 1} more errors`];
  return {
    errors: shownErrors,
    headers,
    hiddenHeaders: headerRoom > 0 ? headerNames.length - headers.length : 0,
    bodyHeight: Math.max(1, bodyLeast + bodyMore),
    lines,
  };
}

/** A failure in `height` lines: what went wrong (the server's error lines as many as fit), and the hint. */
function failureLines(
  failure: DpxError,
  height: number,
  width: number,
): { title: string[]; errors: string[]; hint: string[] } {
  const status = failure instanceof ApiError ? failure.status : undefined;
  const title = wrapLines(`${status ? `HTTP ${status} · ` : ''}${failure.message}`, Math.max(1, width - 1), 3);
  const errors =
    failure instanceof ApiError ? failure.errors.map((entry) => oneLine(`[${entry.code}] ${entry.message}`)) : [];
  const hint = failure.hint ? wrapLines(`hint: ${failure.hint}`, Math.max(1, width - 1), 2) : [];
  const [titleRoom = 0, errorRoom = 0, hintRoom = 0] = share(
    height,
    [
      { least: 1, most: title.length },
      { least: Math.min(1, errors.length), most: errors.length },
      { least: Math.min(1, hint.length), most: hint.length },
    ],
    [0, 2, 1],
  );
  return { title: title.slice(0, titleRoom), errors: errors.slice(0, errorRoom), hint: hint.slice(0, hintRoom) };
}

async function send(ctx: Ctx): Promise<void> {
  const { flow, request } = ctx.state;
  const { session } = flow.origin.connection;
  ctx.update({ loading: `${request.method} ${request.url}` });
  try {
    const response = await session.send(request);
    if (isWriteMethod(request.method) && response.status >= 200 && response.status < 300) {
      // What the write changed is stale wherever it is shown: its resource's lists and records, and the
      // resource of what came back (a restore answers with its task).
      ctx.services.noteWrite(request.resource);
      const media = parseVendorMediaType(response.contentType);
      if (media && media.resource !== request.resource) ctx.services.noteWrite(media.resource);
    }
    const catalog = ctx.services.catalogOf(flow.origin.connection);
    const followable = catalog ? findFollowableTask(response, catalog) : undefined;
    ctx.update({ loading: undefined, response, ...(followable ? { followable } : {}) });
  } catch (error) {
    ctx.update({ loading: undefined, failure: toDpxError(error) });
  }
}

async function follow(ctx: Ctx): Promise<void> {
  const { flow, followable } = ctx.state;
  if (!followable) return;
  try {
    const request = await taskRequest(flow.origin.connection.session, followable);
    ctx.nav.open('task', { flow, request });
  } catch (error) {
    ctx.update({ error: errorInfo(error) });
  }
}

function scroll(ctx: Ctx, by: (state: ResponseState, page: number) => number): void {
  const { lines, bodyHeight } = layout(ctx.state, ctx.bodyHeight(), ctx.size.columns, ctx.now);
  const maxTop = Math.max(0, lines.length - bodyHeight);
  ctx.update((s) => ({ top: Math.max(0, Math.min(maxTop, by(s, bodyHeight))) }));
}

export const responseScreen: ScreenModule<ResponseState, ResponseParams> = {
  title: 'response',
  init: (params) => ({ ...params, raw: false, top: 0 }),
  start: (ctx) => void send(ctx),
  origin: (s) => s.flow.origin,
  crumb: () => 'response',
  subject: (s) => `${s.request.resource}@${s.request.version}`,
  bindings: [
    { keys: ['y'], help: 'raw / tree', hint: 'y raw', run: (ctx) => ctx.update((s) => ({ raw: !s.raw })) },
    {
      keys: ['t'],
      help: 'follow the task the response names (Enter on its end opens the record)',
      hint: 't follow the task',
      when: (s) => s.followable !== undefined,
      run: (ctx) => void follow(ctx),
    },
    { keys: ['down', 'j'], help: 'scroll', hint: '↑↓ scroll', run: (ctx) => scroll(ctx, (s) => s.top + 1) },
    { keys: ['up', 'k'], help: 'scroll', run: (ctx) => scroll(ctx, (s) => s.top - 1) },
    { keys: ['pagedown'], help: 'scroll a page', run: (ctx) => scroll(ctx, (s, page) => s.top + page) },
    { keys: ['pageup'], help: 'scroll a page', run: (ctx) => scroll(ctx, (s, page) => s.top - page) },
    { keys: ['escape'], help: 'back to the form', hint: 'Esc back', run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, ctx, height, width }) => {
    const { response, failure } = state;
    if (!response) {
      if (!failure)
        return (
          <Text dimColor wrap="truncate">
            sending {state.request.method} {state.request.url}…
          </Text>
        );
      const status = failure instanceof ApiError ? failure.status : undefined;
      const shown = failureLines(failure, height, width);
      return (
        <Box flexDirection="column">
          {shown.title.map((line, index) => (
            <Tinted key={`title ${index}`} bold tone={status ? httpStatusTone(status) : 'bad'}>
              {line}
            </Tinted>
          ))}
          {shown.errors.map((line, index) => (
            <Tinted key={`error ${index}`} tone="bad">
              {line}
            </Tinted>
          ))}
          {shown.hint.map((line, index) => (
            <Text key={`hint ${index}`} dimColor wrap="truncate">
              {line}
            </Text>
          ))}
        </Box>
      );
    }
    const { errors, headers, hiddenHeaders, bodyHeight, lines } = layout(state, height, width, ctx.now);
    return (
      <Box flexDirection="column">
        <Text bold wrap="truncate">
          <Tinted tone={httpStatusTone(response.status)}>
            {response.status} {response.statusText}
          </Tinted>{' '}
          {response.method} {response.url} <Text dimColor>{Math.round(response.durationMs)} ms</Text>
        </Text>
        {headers.map((name) => (
          <Text key={name} dimColor wrap="truncate">
            {oneLine(`${name}: ${response.headers[name]}`)}
          </Text>
        ))}
        {hiddenHeaders > 0 ? (
          <Text dimColor wrap="truncate">
            … {hiddenHeaders} more headers (y raw shows the body only)
          </Text>
        ) : null}
        {errors.map((line, index) => (
          <Tinted key={index} tone="bad" wrap="truncate">
            {line}
          </Tinted>
        ))}
        {state.followable ? (
          <Tinted tone="info">
            t follow it: this response names a task ({state.followable.taskId ?? state.followable.resource}, via{' '}
            {state.followable.reason})
          </Tinted>
        ) : null}
        <Box flexDirection="column">
          {lines.slice(state.top, state.top + bodyHeight).map((line, index) => (
            <Text key={state.top + index} wrap="truncate">
              {line === '' ? ' ' : line}
            </Text>
          ))}
        </Box>
        <Text dimColor wrap="truncate">
          {state.raw ? 'raw' : 'tree'} ·{' '}
          {lines.length > bodyHeight
            ? `${state.top + 1}–${Math.min(lines.length, state.top + bodyHeight)} of ${lines.length}`
            : `${lines.length} lines`}
        </Text>
      </Box>
    );
  },
};
