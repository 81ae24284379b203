// The help of `dpx case`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx case FILE.har [-o table|json]

What a case holds: each command recorded into it with --trail (a page of the HAR file), when it ran, its
command line (secrets masked), the unit and control plane it ran against, and how many requests it sent
and records came back. A browser's export lists its pages. Reads the file only: no network, no token.
  -o, --output FORMAT   table (default), or json: {"file", "creator", "base_url", "commands": [{"page",
                        "command", "argv", "started", "ended", "profile", "origin", "base_url", "unit",
                        "units", "requests", "records"}], "requests", "records", "warnings"}

Recording: \`dpx --trail FILE …\` adds each command to FILE as one more page; a file dpx did not write
is refused (exit 2) and left as it is. Offline: \`dpx --offline FILE <command>\` answers each command in
the unit it was recorded in. Replay: \`dpx replay FILE\`.

${global}`;
}
