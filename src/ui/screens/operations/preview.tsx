// The exact request before it goes: method, URL, headers (token masked), OU, body. Enter sends it (a write
// asks to confirm first, and nothing is sent while writes are off); `c` copies it as curl, with a plain
// OSC 52 the terminal may or may not accept, so the command is shown on screen to select as well.
import { Box, Text } from 'ink';
import type { PreparedRequest } from '../../../api/hal/operation.js';
import { previewRequest } from '../../../api/operations/preview.js';
import {
  confirmationLines,
  deleteConfirmationWord,
  isWriteMethod,
  needsTypedConfirmation,
  writeRefusal,
} from '../../../api/security/safety.js';
import { describeTokenReference } from '../../../api/security/curl.js';
import { wrapLines } from '../../../text/cells.js';
import { Tinted } from '../../components/theme.js';
import { share } from '../../layout.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import { noticeOf } from '../../nav/problems.js';
import { unitName, type Flow } from './flow.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    'request-preview': PreviewParams;
  }
}

export interface PreviewParams {
  flow: Flow;
  /** The form's screen, which the response comes back to. */
  form: number;
  request: PreparedRequest;
  /** The body's schema problems, when the user chose to send it anyway. */
  schemaProblems?: number;
}

export interface PreviewState extends ScreenBase, PreviewParams {
  showCurl: boolean;
  /** Where `c` wrote the curl command whole, to run as it is. */
  curlFile?: string;
  /** The first line of the request shown, when it is longer than the screen. */
  top: number;
}

type Ctx = ScreenContext<PreviewState>;

const refusalOf = (state: PreviewState) =>
  writeRefusal(state.request.method, state.flow.origin.connection.session.readOnly);

/** Sends the request: the flow goes back to its form and shows the response over it. */
export function send(ctx: ScreenContext<unknown>, params: PreviewParams): void {
  ctx.nav.backTo(params.form);
  ctx.nav.open('response', { flow: params.flow, request: params.request });
}

function confirmThenSend(ctx: Ctx): void {
  const { flow, request } = ctx.state;
  const params = {
    flow: ctx.state.flow,
    form: ctx.state.form,
    request,
    ...(ctx.state.schemaProblems ? { schemaProblems: ctx.state.schemaProblems } : {}),
  };
  if (!isWriteMethod(request.method)) return send(ctx as ScreenContext<unknown>, params);
  // The open record is the target only of its own resource's operations, not of a related one.
  const target = flow.record?.resource === request.resource ? flow.record.fields : undefined;
  const ouName = unitName(ctx as ScreenContext<unknown>, flow, request.ou);
  ctx.nav.open('write-confirm', {
    origin: flow.origin,
    method: request.method,
    lines: confirmationLines(request, {
      baseUrl: flow.origin.connection.session.baseUrl,
      ...(ouName ? { ouName } : {}),
    }),
    ...(ctx.state.schemaProblems
      ? {
          warning: `the body has ${ctx.state.schemaProblems === 1 ? 'a problem' : `${ctx.state.schemaProblems} problems`} with the schema: it goes anyway, for the server's own validation to answer`,
        }
      : {}),
    ...(needsTypedConfirmation(request.method) ? { expectedWord: deleteConfirmationWord(request, target) } : {}),
    confirm: (confirmed) => send(confirmed, params),
  });
}

/**
 * How the preview shares its lines: a title saying which lines are shown, the request in a box (or, after
 * `c`, the curl command, broken over lines to fit, nothing of it cut), the warnings, the key hints.
 */
function previewLayout(state: PreviewState, ctx: ScreenContext<unknown>, width: number, height: number) {
  const ouName = unitName(ctx, state.flow, state.request.ou);
  const tokenRef = state.flow.origin.connection.tokenRef;
  const preview = previewRequest(state.request, {
    authenticated: true,
    ...(ouName ? { ouName } : {}),
    ...(tokenRef ? { tokenRef } : {}),
  });
  const refusal = refusalOf(state);
  const text = Math.max(1, width - 1);
  const warning = state.schemaProblems
    ? wrapLines(
        `⚠ the body has ${state.schemaProblems === 1 ? 'a problem' : `${state.schemaProblems} problems`} with the schema; it goes as it is, for the server to judge`,
        text,
        2,
      )
    : [];
  const refused = refusal
    ? wrapLines(`✗ ${refusal.message}. ${refusal.hint}, or W to turn writes on here.`, text, 2)
    : [];
  const notice = state.showCurl
    ? wrapLines(
        `sent to the terminal's clipboard as OSC 52 — if the terminal accepts it (tmux: set-clipboard on); select it here otherwise (Esc shows the request again).${state.curlFile ? ` Whole, as it runs: written unwrapped to ${state.curlFile} (sh ${state.curlFile} runs it).` : ''} The token is read from ${describeTokenReference(tokenRef)}:`,
        text,
        6,
      )
    : [];
  // The curl command whole, each line broken to the width: what is selected from the screen is all of it.
  const lines = state.showCurl
    ? preview.curl.split('\n').flatMap((line) => wrapLines(line, text, Infinity, { hard: true }))
    : preview.lines;
  const chrome = state.showCurl ? 0 : 2;
  const [, room = 0, refusalRoom = 0, warningRoom = 0, noticeRoom = 0, hintRoom = 0] = share(
    height,
    [
      { least: 1, most: 1 },
      { least: chrome + 1, most: chrome + lines.length },
      { least: Math.min(1, refused.length), most: refused.length },
      { least: Math.min(1, warning.length), most: warning.length },
      { least: Math.min(1, notice.length), most: notice.length },
      { least: 0, most: refusal ? 0 : 1 },
    ],
    [0, 2, 3, 4, 5, 1],
  );
  const shown = Math.max(1, room - chrome);
  const top = Math.max(0, Math.min(state.top, lines.length - shown));
  return {
    preview,
    lines,
    shown,
    top,
    chrome,
    refused: refused.slice(0, refusalRoom),
    warning: warning.slice(0, warningRoom),
    notice: notice.slice(0, noticeRoom),
    hint: hintRoom > 0,
  };
}

/** Scrolls what the preview shows (the request, or the curl command) by `by` lines, or by pages. */
function scroll(ctx: Ctx, by: (page: number) => number): void {
  const { lines, shown } = previewLayout(ctx.state, ctx as ScreenContext<unknown>, ctx.size.columns, ctx.bodyHeight());
  const last = Math.max(0, lines.length - shown);
  ctx.update((s) => ({ top: Math.max(0, Math.min(last, Math.min(s.top, last) + by(shown))) }));
}

export const previewScreen: ScreenModule<PreviewState, PreviewParams> = {
  title: 'request preview',
  init: (params) => ({ ...params, showCurl: false, top: 0 }),
  origin: (s) => s.flow.origin,
  crumb: () => 'preview',
  subject: (s) => `${s.request.resource}@${s.request.version}`,
  bindings: [
    {
      keys: ['c'],
      help: 'copy as curl (a plain OSC 52, and whole in a dpx-curl-<time>.sh file, to run as it is; shown to select too), the token read from where dpx read it',
      hint: 'c copy as curl',
      run: (ctx) => {
        const tokenRef = ctx.state.flow.origin.connection.tokenRef;
        const { curl } = previewRequest(ctx.state.request, tokenRef ? { tokenRef } : {});
        ctx.services.terminal.copy(curl);
        ctx.update({ showCurl: true, top: 0 });
        // The screen breaks long lines: the file keeps the command whole, to run as it was printed.
        ctx.services.writeCurl(curl).then(
          (path) => ctx.update({ curlFile: path }),
          (error: unknown) => ctx.nav.notify(noticeOf('the curl command was not written to a file', error)),
        );
      },
    },
    { keys: ['down', 'j'], help: 'scroll the request (or the curl command)', run: (ctx) => scroll(ctx, () => 1) },
    { keys: ['up', 'k'], help: 'scroll the request (or the curl command)', run: (ctx) => scroll(ctx, () => -1) },
    { keys: ['pagedown'], help: 'scroll a page', run: (ctx) => scroll(ctx, (page) => page) },
    { keys: ['pageup'], help: 'scroll a page', run: (ctx) => scroll(ctx, (page) => -page) },
    {
      keys: ['return'],
      help: 'send (a write asks to confirm; refused while writes are off)',
      hint: 'Enter send',
      when: (s) => !refusalOf(s),
      run: confirmThenSend,
    },
    {
      keys: ['escape'],
      help: 'the request again, from the curl command',
      hint: 'Esc the request',
      when: (s) => s.showCurl,
      run: (ctx) => ctx.update({ showCurl: false, top: 0 }),
    },
    {
      keys: ['escape'],
      help: 'back to the form',
      hint: 'Esc back to the form',
      when: (s) => !s.showCurl,
      run: (ctx) => ctx.nav.back(),
    },
  ],
  View: ({ state, ctx, height, width }) => {
    const layout = previewLayout(state, ctx as ScreenContext<unknown>, width, height);
    const { preview, lines, shown, top } = layout;
    const visible = lines.slice(top, top + shown);
    const where =
      lines.length > shown
        ? `lines ${top + 1}–${top + visible.length} of ${lines.length} (↑↓ PgUp PgDn)`
        : state.showCurl
          ? 'the curl command'
          : 'as it will leave; the token masked';
    return (
      <Box flexDirection="column">
        <Text bold wrap="truncate">
          Request preview <Text dimColor>{where}</Text>
        </Text>
        {state.showCurl ? (
          <>
            {layout.notice.map((line, index) => (
              <Tinted key={`notice ${index}`} tone="good" wrap="truncate">
                {line}
              </Tinted>
            ))}
            {visible.map((line, index) => (
              <Text key={top + index} wrap="truncate">
                {line === '' ? ' ' : line}
              </Text>
            ))}
          </>
        ) : (
          <Box flexDirection="column" borderStyle="single" paddingX={1}>
            {visible.map((line, index) => (
              <Text key={top + index} wrap="truncate" bold={top + index === 0}>
                {line === '' ? ' ' : line}
              </Text>
            ))}
          </Box>
        )}
        {layout.warning.map((line, index) => (
          <Tinted key={`warning ${index}`} tone="busy" wrap="truncate">
            {line}
          </Tinted>
        ))}
        {layout.refused.map((line, index) => (
          <Tinted key={`refused ${index}`} tone="bad" wrap="truncate">
            {line}
          </Tinted>
        ))}
        {layout.hint ? (
          <Text dimColor wrap="truncate">
            Enter {isWriteMethod(preview.method) ? 'confirm and send' : 'send'} · c copy as curl · Esc{' '}
            {state.showCurl ? 'the request' : 'back to the form'}
          </Text>
        ) : null}
      </Box>
    );
  },
};
