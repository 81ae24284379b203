// The help of the commands that work on case files: replay, case and report. help.ts holds the others
// and the global options these end with.

/** Their texts, each ending with `global`: the global options. */
export function caseTexts(global: string): Record<'replay' | 'case' | 'report', string> {
  return {
    replay: `Usage: dpx replay FILE.har [--ou ID] [--profile NAME] [-o table|json] [--exit-code]

Sends the case's GET and HEAD requests again to the current control plane (token, profile), each in the
unit and version it was recorded in, and compares each answer with the recorded one: against the same
data, nothing differs. --ou asks every request in that unit instead, and --profile or --base-url another
control plane, on purpose. Recorded URLs are moved from the case's base URL onto the current one. Writes
are listed as skipped and never sent, whatever the settings; so is anything recorded to authenticate
(headers, a user:password in a URL) and any URL outside the base path. A request recorded several times
is replayed once.
For each request: the status then and now, and for lists and records, the records added, removed and
changed (matched by id, else by self link), with the changed field paths and both values. _links, _etag
and the envelope around a list's records (counts, page, when the answer was made) are not changes.
  -o, --output FORMAT   table (default), or json: {"requests": [{"method", "url", "then": {"status"},
                        "now": {"status"}, "added": [{"id", "label"}], "removed": […], "changed": [{"id",
                        "fields": [{"path", "then", "now"}]}]}], "skipped": [{"method", "url", "reason"}]}
  --exit-code           exit 5 when anything differs (else 0), also when stdout is a pipe

${global}`,
    case: `Usage: dpx case FILE.har [-o table|json]

What a case holds: each command recorded into it with --trail (a page of the HAR file), when it ran, its
command line (secrets masked), the unit and control plane it ran against, and how many requests it sent
and records came back. A browser's export lists its pages. Reads the file only: no network, no token.
  -o, --output FORMAT   table (default), or json: {"file", "creator", "base_url", "commands": [{"page",
                        "command", "argv", "started", "ended", "profile", "origin", "base_url", "unit",
                        "units", "requests", "records"}], "requests", "records", "warnings"}

Recording: \`dpx --trail FILE …\` adds each command to FILE as one more page; a file dpx did not write
is refused (exit 2) and left as it is. Offline: \`dpx --offline FILE <command>\` answers each command in
the unit it was recorded in. Replay: \`dpx replay FILE\`.

${global}`,
    report: `Usage: dpx report FILE.har -o report.html|report.md

A case as a report a ticket can carry: each command recorded with --trail, its time, control plane, unit
and command line, and its answer rebuilt from the case (each command asked again offline, in its
recorded unit and at its recorded time): counts as a matrix, lists and groups as tables, an x-ray as a
picture laid out by Graphviz. Sends nothing and reads no token.
  -o, --output FILE     report.html: one self-contained file (no script, nothing fetched from
                        elsewhere); report.md: Markdown, the commands in code blocks, and each picture
                        as an SVG file beside it (report-2.svg for the second command)

${global}`,
  };
}
