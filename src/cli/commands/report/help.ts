// The help of `dpx report`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx report FILE.har -o report.html|report.md

A case as a report a ticket can carry: each command recorded with --trail, its time, control plane, unit
and command line, and its answer rebuilt from the case (each command asked again offline, in its
recorded unit and at its recorded time): counts as a matrix, lists and groups as tables, an x-ray as a
picture laid out by Graphviz. Sends nothing and reads no token.
  -o, --output FILE     report.html: one self-contained file (no script, nothing fetched from
                        elsewhere); report.md: Markdown, the commands in code blocks, and each picture
                        as an SVG file beside it (report-2.svg for the second command)

${global}`;
}
