// The whole frame: header, breadcrumb, the top screen's body, its panel, the footer. Keys go to the
// navigator one at a time; the frame is drawn from its state.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Box, Text, useInput, useStdin, useStdout } from 'ink';
import { describeToken } from '../../api/security/token.js';
import { cellWidth, oneLine, truncate } from '../../text/cells.js';
import { toKeys } from '../keys.js';
import { bodyHeight, breadcrumb, noticeLines } from '../layout.js';
import { PasteReader } from '../paste.js';
import { footerHints } from '../nav/bindings.js';
import type { Navigator } from '../nav/navigator.js';
import { Header } from './Header.js';
import { Panel } from './Panel.js';
import { Tinted } from './theme.js';

export function Frame({ navigator }: { navigator: Navigator }) {
  const state = useSyncExternalStore(navigator.subscribe, navigator.getState);
  const stdin = useStdin() as ReturnType<typeof useStdin> & { internal_eventEmitter?: NodeJS.EventEmitter };
  const { isRawModeSupported } = stdin;
  const { stdout } = useStdout();
  // The bytes of each input event, heard before useInput's handler (registered after this one): they
  // tell the Delete key from Backspace, which ink names alike.
  const raw = useRef<string | undefined>(undefined);
  // A paste (between the bracketed-paste marks) is text for the field in front, and none of its events a key.
  const paste = useRef(new PasteReader());
  const pasting = useRef(false);
  const emitter = stdin.internal_eventEmitter;
  useEffect(() => {
    if (!emitter) return;
    const hear = (input: string) => {
      raw.current = input;
      const heard = paste.current.hear(input);
      pasting.current = heard.swallow;
      if (heard.pasted !== undefined) navigator.paste(heard.pasted);
    };
    emitter.on('input', hear);
    return () => {
      emitter.off('input', hear);
    };
  }, [emitter, navigator]);
  useInput(
    (input, key) => {
      if (pasting.current) return;
      for (const k of toKeys(input, key, raw.current)) navigator.key(k);
    },
    { isActive: isRawModeSupported === true },
  );
  useEffect(() => {
    const onResize = () => navigator.resize(stdout.columns || 80, stdout.rows || 24);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [navigator, stdout]);

  const top = navigator.top();
  const screen = navigator.screen();
  if (!top || !screen) return null;
  const { screens } = navigator;
  const topModule = screens.moduleOf(top.kind);
  const screenModule = screens.moduleOf(screen.kind);
  const topContext = navigator.contextOf(top.id);
  const { columns, rows } = state.size;
  // A screen whose first request failed has nothing else to show: the failure takes its place.
  const failed = screen === top && screen.state.error?.tone === 'error' && screenModule.empty?.(screen.state) === true;
  const height = bodyHeight(rows, failed ? undefined : screen.state.error, columns, state.notice);
  const longNotice = noticeLines(state.notice, columns);
  // The header speaks of where what is on screen came from: a list opened from a count cell is in its
  // unit, a record read before an OU switch in the unit it was read in.
  const origin = navigator.frontOrigin();
  const { connection } = origin;
  const ouName =
    origin.ou === navigator.services.connection.session.ou && connection === navigator.services.connection
      ? state.ouName
      : navigator.services.unitName(connection, origin.ou);
  const crumbs = state.stack
    .filter((entry) => !screens.moduleOf(entry.kind).overlay)
    .map((entry) => oneLine(screens.moduleOf(entry.kind).crumb(entry.state)));
  const status = topModule.status?.(top.state, topContext);
  // A notice that does not fit beside the status takes the footer alone (over two lines when it must).
  const left = status && !(state.notice && cellWidth(`${status}  ${state.notice}`) > columns - 1) ? `${status}  ` : '';
  const hints = footerHints(
    topModule.bindings,
    screens.takesGlobalKeys(top.kind, top.state) ? screens.globalBindings : [],
    top.state,
  );
  const right = state.notice ? (
    <Tinted tone="info">{truncate(state.notice, Math.max(0, columns - 1 - left.length))}</Tinted>
  ) : (
    <Tinted tone="muted">{truncate(hints, Math.max(0, columns - 1 - left.length))}</Tinted>
  );
  return (
    <Box flexDirection="column" width={columns}>
      <Header
        session={connection.session}
        profile={connection.profile}
        {...(connection.offline ? { offline: connection.offline } : {})}
        token={connection.token ? describeToken(connection.token, connection.session.baseUrl, state.now) : undefined}
        {...(origin.ou ? { ou: origin.ou } : {})}
        {...(ouName ? { ouName } : {})}
        current={screenModule.subject?.(screen.state)}
        loading={top.state.loading ?? screen.state.loading}
        badges={screenModule.badges?.(screen.state, columns) ?? []}
        columns={columns}
        now={state.now}
      />
      <Text wrap="truncate">
        <Tinted tone="muted">{breadcrumb(crumbs, columns - 1)}</Tinted>
      </Text>
      {/* The body is planned to fit its height (src/ui/layout.ts). One that does not is cut at the bottom: its
          lines keep their height (flexShrink 0), where ink would otherwise shrink them and draw one over another. */}
      <Box flexDirection="column" height={height} overflowY="hidden">
        <Box flexDirection="column" flexShrink={0}>
          {failed ? (
            <Panel error={screen.state.error} columns={columns} />
          ) : (
            <topModule.View state={top.state} ctx={topContext} height={height} width={columns} />
          )}
        </Box>
      </Box>
      {failed ? null : <Panel error={screen.state.error} columns={columns} />}
      {longNotice.length > 0 ? (
        longNotice.map((line, index) => (
          <Text key={`notice ${index}`} wrap="truncate">
            <Tinted tone="info">{line}</Tinted>
          </Text>
        ))
      ) : (
        // The footer keeps its line when it has nothing to say (an overlay without hints): a frame one line
        // short of rows − 1 leaves, after the terminal is narrowed, a row of the earlier frame that ink's
        // erasing does not reach, and the frame drawn one row down.
        <Text wrap="truncate">
          <Tinted bold>{left}</Tinted>
          {right}
          {left || state.notice || hints ? '' : ' '}
        </Text>
      )}
    </Box>
  );
}
