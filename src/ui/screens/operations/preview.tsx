// The exact request before it goes: method, URL, headers (token masked), OU, body. Enter sends it (a write
// asks to confirm first, and nothing is sent while writes are off); `c` copies it as curl, with a plain
// OSC 52 the terminal may or may not accept, so the command is shown on screen to select as well.
import { Box, Text } from 'ink';
import type { PreparedRequest } from '../../../api/hal/operation.js';
import { previewRequest } from '../../../api/operations/preview.js';
import { confirmationLines, deleteConfirmationWord, isWriteMethod, needsTypedConfirmation, writeRefusal } from '../../../api/security/safety.js';
import { describeTokenReference } from '../../../api/security/curl.js';
import { Tinted } from '../../components/theme.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
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
  /** The first line of the request shown, when it is longer than the screen. */
  top: number;
}

type Ctx = ScreenContext<PreviewState>;

const refusalOf = (state: PreviewState) => writeRefusal(state.request.method, state.flow.origin.connection.session.readOnly);

/** Sends the request: the flow goes back to its form and shows the response over it. */
export function send(ctx: ScreenContext<unknown>, params: PreviewParams): void {
  ctx.nav.backTo(params.form);
  ctx.nav.open('response', { flow: params.flow, request: params.request });
}

function confirmThenSend(ctx: Ctx): void {
  const { flow, request } = ctx.state;
  const params = { flow: ctx.state.flow, form: ctx.state.form, request, ...(ctx.state.schemaProblems ? { schemaProblems: ctx.state.schemaProblems } : {}) };
  if (!isWriteMethod(request.method)) return send(ctx as ScreenContext<unknown>, params);
  // The open record is the target only of its own resource's operations, not of a related one.
  const target = flow.record?.resource === request.resource ? flow.record.fields : undefined;
  const ouName = unitName(ctx as ScreenContext<unknown>, flow, request.ou);
  ctx.nav.open('write-confirm', {
    origin: flow.origin,
    method: request.method,
    lines: confirmationLines(request, { baseUrl: flow.origin.connection.session.baseUrl, ...(ouName ? { ouName } : {}) }),
    ...(ctx.state.schemaProblems ? { warning: `the body has ${ctx.state.schemaProblems === 1 ? 'a problem' : `${ctx.state.schemaProblems} problems`} with the schema: it goes anyway, for the server's own validation to answer` } : {}),
    ...(needsTypedConfirmation(request.method) ? { expectedWord: deleteConfirmationWord(request, target) } : {}),
    confirm: (confirmed) => send(confirmed, params),
  });
}

export const previewScreen: ScreenModule<PreviewState, PreviewParams> = {
  title: 'request preview',
  init: (params) => ({ ...params, showCurl: false, top: 0 }),
  origin: (s) => s.flow.origin,
  crumb: () => 'preview',
  subject: (s) => `${s.request.resource}@${s.request.version}`,
  bindings: [
    {
      keys: ['c'], help: 'copy as curl (a plain OSC 52; the command is shown to select too), the token read from where dpx read it', hint: 'c copy as curl',
      run: (ctx) => {
        const tokenRef = ctx.state.flow.origin.connection.tokenRef;
        ctx.services.terminal.copy(previewRequest(ctx.state.request, tokenRef ? { tokenRef } : {}).curl);
        ctx.update({ showCurl: true });
      },
    },
    { keys: ['down', 'j'], help: 'scroll the request', run: (ctx) => ctx.update((s) => ({ top: s.top + 1 })) },
    { keys: ['up', 'k'], help: 'scroll the request', run: (ctx) => ctx.update((s) => ({ top: Math.max(0, s.top - 1) })) },
    { keys: ['pagedown'], help: 'scroll a page', run: (ctx) => ctx.update((s) => ({ top: s.top + Math.max(1, ctx.bodyHeight() - 6) })) },
    { keys: ['pageup'], help: 'scroll a page', run: (ctx) => ctx.update((s) => ({ top: Math.max(0, s.top - Math.max(1, ctx.bodyHeight() - 6)) })) },
    { keys: ['return'], help: 'send (a write asks to confirm; refused while writes are off)', hint: 'Enter send', when: (s) => !refusalOf(s), run: confirmThenSend },
    { keys: ['escape'], help: 'back to the form', hint: 'Esc back to the form', run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, ctx, height }) => {
    const ouName = unitName(ctx as ScreenContext<unknown>, state.flow, state.request.ou);
    const tokenRef = state.flow.origin.connection.tokenRef;
    const preview = previewRequest(state.request, { authenticated: true, ...(ouName ? { ouName } : {}), ...(tokenRef ? { tokenRef } : {}) });
    const refusal = refusalOf(state);
    const curlLines = state.showCurl ? preview.curl.split('\n').length + 2 : 0;
    const room = Math.max(3, height - 5 - curlLines - (refusal ? 1 : 0) - (state.schemaProblems ? 1 : 0));
    const top = Math.max(0, Math.min(state.top, preview.lines.length - room));
    const shown = preview.lines.slice(top, top + room);
    return (
      <Box flexDirection="column">
        <Text bold>Request preview <Text dimColor>{preview.lines.length > room ? `lines ${top + 1}–${top + shown.length} of ${preview.lines.length} (↑↓ PgUp PgDn)` : 'as it will leave; the token masked'}</Text></Text>
        <Box flexDirection="column" borderStyle="single" paddingX={1}>
          {shown.map((line, index) => <Text key={top + index} wrap="truncate" bold={top + index === 0}>{line === '' ? ' ' : line}</Text>)}
        </Box>
        {state.schemaProblems ? <Tinted tone="busy">⚠ the body has {state.schemaProblems === 1 ? 'a problem' : `${state.schemaProblems} problems`} with the schema; it goes as it is, for the server to judge</Tinted> : null}
        {refusal ? <Tinted tone="bad">✗ {refusal.message}. {refusal.hint}, or W to turn writes on here.</Tinted> : null}
        {state.showCurl && (
          <Box flexDirection="column" marginTop={1}>
            <Tinted tone="good">sent to the terminal's clipboard as OSC 52 — if the terminal accepts it (tmux: set-clipboard on); select it here otherwise. The token is read from {describeTokenReference(tokenRef)}:</Tinted>
            <Text>{preview.curl}</Text>
          </Box>
        )}
        {refusal ? null : <Text dimColor>Enter {isWriteMethod(preview.method) ? 'confirm and send' : 'send'} · c copy as curl · Esc back to the form</Text>}
      </Box>
    );
  },
};
