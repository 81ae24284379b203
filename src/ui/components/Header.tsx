// The three header lines: where requests go and in which OU; who the token says it is and how long it
// lasts (with a warning when it is expired, nearly so, or from another control plane); then what is
// on screen, whether writes are allowed, and how the connection is doing. Always visible, so the user
// always knows the context of what they see.
import { Box, Text } from 'ink';
import type { Session } from '../../api/session/session.js';
import type { TokenInfo } from '../../api/security/token.js';
import { oneLine, truncate } from '../../text/cells.js';
import { duration } from '../values.js';
import { Spinner } from './Spinner.js';
import { Tinted } from './theme.js';

export interface HeaderProps {
  session: Session;
  profile?: string;
  /** "OFFLINE · case.har" when every answer comes from a trail. */
  offline?: string;
  token?: TokenInfo;
  /** The unit what is on screen was read in, and its name when known. */
  ou?: string;
  ouName?: string;
  current?: string;
  loading?: string;
  /** Marks of the screen on show ('WATCH'). */
  badges: string[];
  columns: number;
  now: number;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** "token alice (personal) · issuer eu.example · exp 1h 59m". */
function tokenText(token: TokenInfo, now: number): string {
  const who = `${token.subject ?? 'unknown subject'}${token.type ? ` (${token.type})` : ''}`;
  const issuer = token.issuer ? ` · issuer ${hostOf(token.issuer)}` : '';
  if (!token.expiresAt) return `token ${who}${issuer} · no expiry`;
  const left = token.expiresAt.getTime() - now;
  return `token ${who}${issuer} · ${left <= 0 ? `expired ${duration(-left)} ago` : `exp ${duration(left)}`}`;
}

const NEAR_EXPIRY_MS = 10 * 60_000;

/**
 * The token's warnings in a few words each, so that who the token is still fits the line: expired,
 * close to expiry, from another control plane; anything else describeToken says, as it says it.
 */
function shortWarnings(token: TokenInfo, host: string, now: number): string[] {
  const short: string[] = [];
  const left = token.expiresAt ? token.expiresAt.getTime() - now : undefined;
  if (left !== undefined && left <= 0) short.push('token EXPIRED');
  else if (left !== undefined && left < NEAR_EXPIRY_MS) short.push(`token expires in ${duration(left)}`);
  if (token.issuer !== undefined && hostOf(token.issuer) !== host)
    short.push(`token issued by ${hostOf(token.issuer)}, not by this control plane`);
  const explained = /expire|issued by/;
  return [...short, ...token.warnings.filter((w) => !explained.test(w))];
}

export function Header({
  session,
  profile,
  offline,
  token,
  ou: unit,
  ouName,
  current,
  loading,
  badges,
  columns,
  now,
}: HeaderProps) {
  const host = new URL(session.baseUrl).host;
  const ou = unit ? (ouName && ouName !== unit ? `${ouName} (${unit.slice(0, 8)}…)` : unit) : 'none';
  const latency = session.stats.lastLatencyMs === undefined ? '—' : `${Math.round(session.stats.lastLatencyMs)} ms`;
  const first = `${profile ? `${profile} · ` : ''}${host} · OU ${ou}`;
  const who = offline
    ? 'answers come from the trail; nothing is sent and no token is read'
    : token
      ? tokenText(token, now)
      : 'no token: requests go unauthenticated';
  const warnings = token ? shortWarnings(token, host, now) : [];
  const expired = token?.expiresAt !== undefined && token.expiresAt.getTime() <= now;
  const foreign = token?.issuer !== undefined && hostOf(token.issuer) !== host;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Tinted tone="info" bold>
          dpx
        </Tinted>{' '}
        {offline ? (
          <Tinted tone="busy" bold>
            {oneLine(offline)} ·{' '}
          </Tinted>
        ) : null}
        {truncate(first, Math.max(10, columns - 5 - (offline ? offline.length + 3 : 0)))}
      </Text>
      <Text wrap="truncate">
        {warnings.length ? (
          <Tinted tone={expired || foreign ? 'bad' : 'busy'} bold>
            ⚠ {oneLine(warnings.join(' · '))} ·{' '}
          </Tinted>
        ) : null}
        <Tinted tone={offline ? 'muted' : !token || expired ? 'bad' : 'muted'}>{oneLine(who)}</Tinted>
      </Text>
      <Text wrap="truncate">
        <Tinted bold>{oneLine(current ?? 'catalog')}</Tinted>
        {session.readOnly ? (
          <Tinted tone="busy"> [READ-ONLY]</Tinted>
        ) : (
          <Tinted tone="bad" bold>
            {' '}
            [WRITES ALLOWED]
          </Tinted>
        )}
        {badges.map((badge) => (
          <Tinted key={badge} tone="info">
            {' '}
            [{oneLine(badge)}]
          </Tinted>
        ))}
        {` · ${session.stats.requests} requests · last ${latency}`}
        {loading ? (
          <Text>
            {' '}
            · <Spinner label={oneLine(loading)} />
          </Text>
        ) : null}
      </Text>
    </Box>
  );
}
