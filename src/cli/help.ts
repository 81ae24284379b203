// The text of `dpx --help` and `dpx <command> --help`: dpx's own (the overview of every command, from the
// registry) and each command's, from its folder, loaded when asked for. Every text ends with the global
// options.

import { COMMANDS, type CommandName } from './commands/registry.js';

const GLOBAL = `Global options (before or after the command):
  --profile NAME        use a saved profile (default: DPX_PROFILE, else the current profile)
  --base-url URL        the control plane's base URL (env DPX_BASE_URL)
  --token-file FILE     read the bearer token from FILE (must be readable only by you)
                        (or env DPX_TOKEN; a token is never accepted as an argument)
  --ou UNIT             organizational unit to act in: id, name or path "A/B" (env DPX_OU)
  --ou-header NAME      header that carries the organizational unit
  --vendor NAME         vendor token of the media types; overrides the one the index's Content-Type
                        names (default: learned from the index; a profile's vendor until then)
  --read-only           refuse every write (the default)
  --allow-writes        allow POST/PUT/PATCH/DELETE (each still confirmed, or --yes)
  --timeout SECONDS     per-request timeout (default 30)
  --concurrency N       requests in flight at once per control plane (default 8; env DPX_CONCURRENCY)
  --rate N              requests per second per control plane, at most (env DPX_RATE); without it the
                        rate follows the server's RateLimit headers and 429s, from a slow start;
                        a 429 with Retry-After pauses every request to that control plane until then
  --trail FILE          add this command to a case file: every request and response (tokens redacted)
                        as one page of a HAR file; a file dpx did not write is refused
  --demo                run against the embedded demo control plane (no account needed)
  --offline FILE        answer every request from a recorded case (HAR: dpx's or a browser's), each
                        command in the unit it was recorded in; nothing is sent, no token is read,
                        writes are refused
  --proxy URL           forward proxy (http://[USER:PASSWORD@]host:port; "" for none); over the
                        profile's and HTTPS_PROXY / HTTP_PROXY / ALL_PROXY; NO_PROXY still applies
  --ca-file PEM         trust this certificate authority too, for this control plane
                        (NODE_EXTRA_CA_CERTS keeps working)
  --proxy-ca-file PEM   trust this certificate authority for an https:// proxy's own certificate
                        (else --ca-file's, else Node's)
  --trust-origin ORIGIN send the token to ORIGIN although it belongs to another control plane
  -h, --help            help; \`dpx <command> --help\` for one command
  --version             print dpx's version

Exit codes: 0 ok, 1 API error or partial answer, 2 usage error, 3 network or protocol error (also
paging that never ends), 4 refused for safety, 5 differences found (replay and diff with --exit-code),
6 a followed task that did not succeed, 130/143 interrupted (SIGINT/SIGTERM).`;

const OVERVIEW = [
  ['dpx [global options]', 'the interactive explorer'],
  ['dpx --demo', 'the explorer on the embedded demo control plane'],
  ['dpx --offline FILE.har', 'the explorer on what a trail recorded, with no network'],
  ...Object.values(COMMANDS).flatMap(({ usage, summary }) =>
    usage === undefined || summary === undefined ? [] : [[usage, summary]],
  ),
]
  .map(([usage, summary]) => `  ${usage!.padEnd(34)}${summary}`)
  .join('\n');

const DPX = `dpx — explore a Data Protection Management REST API from its discovery index

Usage:
${OVERVIEW}

${GLOBAL}`;

export async function helpText(command: CommandName): Promise<string> {
  const { help } = COMMANDS[command];
  return `${help === undefined ? DPX : (await help()).help(GLOBAL)}\n`;
}
