// The help of `dpx replay`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx replay FILE.har [--ou ID] [--profile NAME] [-o table|json] [--exit-code]

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

${global}`;
}
