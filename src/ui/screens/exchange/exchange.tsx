// `E`: the last request the explorer sent and what came back, as they went over the wire: the request
// line and headers (credentials masked), the status, the response headers and the raw body.
import { Box, Text } from 'ink';
import type { Exchange } from '../../../api/exchange.js';
import { redactHeaders, redactText } from '../../../api/security/redact.js';
import { cellWidth, oneLine, wrapLines } from '../../../text/cells.js';
import { httpStatusTone, Tinted } from '../../components/theme.js';
import { MOVE_KEYS, moveCursor } from '../../keys.js';
import type { ScreenBase, ScreenModule } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    exchange: ExchangeParams;
  }
}

export interface ExchangeParams {
  origin: Origin;
}

export interface ExchangeState extends ScreenBase, ExchangeParams {
  /** Taken when the screen opens: the screen shows that exchange, not whichever comes next. */
  exchange?: Exchange;
  top: number;
}

/**
 * The exchange as lines to draw, `width` cells wide: the server's headers and body with nothing in them a
 * terminal obeys, a long line run over lines under its own indent, so that every word can be read.
 */
function lines(state: ExchangeState, width: number): string[] {
  const { exchange } = state;
  if (!exchange) return ['no request has been sent on this control plane yet'];
  const secrets = state.origin.connection.token ? [state.origin.connection.token] : [];
  const headers = (all: Record<string, string>) =>
    Object.entries(redactHeaders(all, secrets)).map(([name, value]) => `  ${name}: ${value}`);
  const { request, response } = exchange;
  const shown = [
    `${request.method} ${request.url}`,
    ...headers(request.headers),
    ...(request.body === undefined ? [] : ['', ...redactText(request.body, secrets).split('\n')]),
    '',
    response
      ? `${response.status} ${response.statusText} · ${Math.round(exchange.durationMs)} ms`
      : `no response: ${exchange.error ?? 'unknown'}`,
    ...(response ? headers(response.headers) : []),
    ...(response
      ? [
          '',
          ...redactText(response.body, secrets).split('\n'),
          ...(response.bodyTruncated ? ['… (body cut at 1 MB)'] : []),
        ]
      : []),
  ];
  return shown.map(oneLine).flatMap((line) => {
    if (cellWidth(line) <= width) return [line];
    const indent = /^ */.exec(line)![0].slice(0, Math.floor(width / 2));
    return wrapLines(line.slice(indent.length), width - indent.length, Infinity, { hard: true }).map(
      (part) => `${indent}${part}`,
    );
  });
}

export const exchangeScreen: ScreenModule<ExchangeState, ExchangeParams> = {
  title: 'last exchange (E)',
  init: ({ origin }) => {
    const exchange = origin.connection.session.lastExchange;
    return { origin, top: 0, ...(exchange ? { exchange } : {}) };
  },
  origin: (s) => s.origin,
  crumb: () => 'last exchange',
  bindings: [
    {
      keys: [...MOVE_KEYS],
      help: 'scroll',
      hint: '↑↓ scroll',
      run: (ctx, key) =>
        ctx.update((s) => ({
          top: moveCursor(s.top, lines(s, ctx.size.columns - 1).length, key, ctx.bodyHeight()),
        })),
    },
  ],
  View: ({ state, height, width }) => {
    const status = state.exchange?.response?.status;
    return (
      <Box flexDirection="column">
        {lines(state, width - 1)
          .slice(state.top, state.top + height)
          .map((line, index) => (
            <Text key={state.top + index} wrap="truncate">
              {state.top + index === 0 ? (
                <Tinted bold>{line}</Tinted>
              ) : status !== undefined && line.startsWith(`${status} `) ? (
                <Tinted bold tone={httpStatusTone(status)}>
                  {line}
                </Tinted>
              ) : (
                line || ' '
              )}
            </Text>
          ))}
      </Box>
    );
  },
};
