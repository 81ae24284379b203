// The two header lines: where requests go and as whom, then what is on screen and how the
// connection is doing. Always visible, so the user always knows the context of what they see.
import { Box, Text } from 'ink';
import type { Session } from '../../api/session.js';
import type { TokenInfo } from '../../api/token.js';
import { truncate } from '../text.js';
import { duration } from '../values.js';
import { Spinner } from './Spinner.js';
import { Tinted } from './theme.js';

export interface HeaderProps {
  session: Session;
  profile?: string;
  token?: TokenInfo;
  ouName?: string;
  current?: string;
  loading?: string;
  watching: boolean;
  columns: number;
  now: number;
}

function tokenText(token: TokenInfo | undefined, now: number): { text: string; tone: 'bad' | 'busy' | 'neutral' } {
  if (!token) return { text: 'no token', tone: 'bad' };
  const who = token.subject ?? 'unknown subject';
  if (!token.expiresAt) return { text: who, tone: 'neutral' };
  const left = token.expiresAt.getTime() - now;
  if (left <= 0) return { text: `${who} · expired ${duration(-left)} ago`, tone: 'bad' };
  return { text: `${who} · exp ${duration(left)}`, tone: left < 10 * 60_000 ? 'busy' : 'neutral' };
}

export function Header({ session, profile, token, ouName, current, loading, watching, columns, now }: HeaderProps) {
  const host = new URL(session.baseUrl).host;
  const ou = session.ou ? (ouName ?? session.ou) : 'none';
  const who = tokenText(token, now);
  const latency = session.stats.lastLatencyMs === undefined ? '—' : `${Math.round(session.stats.lastLatencyMs)} ms`;
  const first = `${profile ? `${profile} · ` : ''}${host} · OU ${ou}`;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Tinted color="cyan" bold>dpx</Tinted> {truncate(first, Math.max(10, columns - 6 - who.text.length - 3))} · <Tinted tone={who.tone}>{who.text}</Tinted>
      </Text>
      <Text wrap="truncate">
        <Tinted bold>{current ?? 'catalog'}</Tinted>
        {session.readOnly ? <Tinted color="yellow"> [READ-ONLY]</Tinted> : <Tinted color="red"> [WRITES ALLOWED]</Tinted>}
        {watching ? <Tinted color="cyan"> [WATCH]</Tinted> : null}
        {` · ${session.stats.requests} requests · last ${latency}`}
        {loading ? <Text> · <Spinner label={loading} /></Text> : null}
      </Text>
    </Box>
  );
}
