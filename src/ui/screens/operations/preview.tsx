// The exact request before it goes: method, URL, headers (token masked), OU, body. Enter sends it (a write
// asks to confirm first, and nothing is sent while writes are off); `c` copies it as curl.
import { Box, Text } from 'ink';
import type { PreparedRequest } from '../../../api/hal/operation.js';
import { previewRequest } from '../../../api/operations/preview.js';
import { confirmationLines, deleteConfirmationWord, isWriteMethod, needsTypedConfirmation, writeRefusal } from '../../../api/security/safety.js';
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
}

export interface PreviewState extends ScreenBase, PreviewParams {
  showCurl: boolean;
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
  const params = { flow: ctx.state.flow, form: ctx.state.form, request };
  if (!isWriteMethod(request.method)) return send(ctx as ScreenContext<unknown>, params);
  // The open record is the target only of its own resource's operations, not of a related one.
  const target = flow.record?.resource === request.resource ? flow.record.fields : undefined;
  const ouName = unitName(ctx as ScreenContext<unknown>, flow, request.ou);
  ctx.nav.open('write-confirm', {
    method: request.method,
    lines: confirmationLines(request, { baseUrl: flow.origin.connection.session.baseUrl, ...(ouName ? { ouName } : {}) }),
    ...(needsTypedConfirmation(request.method) ? { expectedWord: deleteConfirmationWord(request, target) } : {}),
    confirm: (confirmed) => send(confirmed, params),
  });
}

export const previewScreen: ScreenModule<PreviewState, PreviewParams> = {
  title: 'request preview',
  ownKeys: true,
  init: (params) => ({ ...params, showCurl: false }),
  origin: (s) => s.flow.origin,
  crumb: () => 'preview',
  subject: (s) => `${s.request.resource}@${s.request.version}`,
  bindings: [
    {
      keys: ['c'], help: 'copy as curl (OSC 52), the token as $DPX_TOKEN', hint: 'c copy as curl',
      run: (ctx) => {
        ctx.services.terminal.copy(previewRequest(ctx.state.request).curl);
        ctx.update({ showCurl: true });
      },
    },
    { keys: ['return'], help: 'send (a write asks to confirm; refused while writes are off)', hint: 'Enter send', when: (s) => !refusalOf(s), run: confirmThenSend },
    { keys: ['escape'], help: 'back to the form', hint: 'Esc back to the form', run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, ctx }) => {
    const ouName = unitName(ctx as ScreenContext<unknown>, state.flow, state.request.ou);
    const preview = previewRequest(state.request, { authenticated: true, ...(ouName ? { ouName } : {}) });
    const refusal = refusalOf(state);
    return (
      <Box flexDirection="column">
        <Text bold>Request preview</Text>
        <Box flexDirection="column" borderStyle="single" paddingX={1}>
          {preview.lines.map((line, index) => <Text key={index} wrap="wrap" bold={index === 0}>{line === '' ? ' ' : line}</Text>)}
        </Box>
        {refusal ? <Tinted tone="bad">✗ {refusal.message}. {refusal.hint}.</Tinted> : null}
        {state.showCurl && (
          <Box flexDirection="column" marginTop={1}>
            <Tinted tone="good">copied as curl (OSC 52); with the token in $DPX_TOKEN:</Tinted>
            <Text>{preview.curl}</Text>
          </Box>
        )}
        {refusal ? null : <Text dimColor>Enter {isWriteMethod(preview.method) ? 'confirm and send' : 'send'} · c copy as curl · Esc back to the form</Text>}
      </Box>
    );
  },
};
