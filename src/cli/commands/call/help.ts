// The help of `dpx call`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx call <resource> <operation-id> [ID] [options]
       dpx call <resource> <operation-id> --help     what that operation needs: its variables, every
                                                     body field of its schema, the body to start
                                                     from, and an example

Sends any operation of the index and prints the response body as JSON (the status goes to stderr).
  ID                    the value of the operation's one path variable (dpx call tasks get_task ID)
  --version vN          a version other than the newest
  --var NAME=VALUE      a template variable (repeatable), e.g. --var task_id=…
  --query NAME=VALUE    a query parameter (repeatable)
  --body JSON|@FILE|-   the request body: inline, from a file, or from standard input (-); checked
                        as JSON, and against the operation's schema when dpx knows one. Comments
                        (// and /* */) and trailing commas are allowed and taken out: what is sent
                        is plain JSON, shown before it goes
  --edit                write the body in $VISUAL or $EDITOR, started from --body or else from a
                        template that names every field of the schema: the required ones filled
                        in, each optional one a commented-out line to uncomment (what stays
                        commented out is not sent)
  --dry-run             print the request as a curl command and send nothing; the command reads the
                        token from where dpx read it ($(cat FILE), or the variable)
  -y, --yes             confirm a write without asking (not a DELETE: see --confirm-id)
  --confirm-id ID       confirm a DELETE without a terminal: ID must be the id it deletes
  --send-invalid        send a body that does not match the schema without asking (its problems are
                        still listed), to test the server's own validation
  -i, --include         print the status line and the response headers before the body
  --wait                follow the task a 202 names (or the task read) to its final state: progress
                        on stderr, the final task record on stdout (as -o and --fields ask); exit 0
                        completed, 6 failed or aborted, 130 on Ctrl-C (the task goes on)
  --fields A,B.C        only these fields of the response's records, in this order (as for dpx list)
  -o, --output FORMAT   json (default: the body as sent), ndjson, table or csv of its records; a list
                        answer prints as dpx list prints a page, a single record as one row
  --csv-crlf            csv lines end in CR LF (default: LF)

Writes (anything but GET and HEAD) are refused unless --allow-writes is given or the profile lifts
read-only ("readOnly": false); a profile with "readOnly": true is locked and refuses them whatever
--allow-writes says (exit 4). On a terminal, dpx shows the request as it will leave (method, URL,
headers with the token masked, the body, the unit by name and id) and asks; a DELETE asks for the id it
deletes to be typed.
Without a terminal, --yes confirms a write and --confirm-id ID a DELETE; otherwise nothing is sent
(exit 4). A body with schema problems is listed problem by problem, and sent only after a second yes
(or --send-invalid). A 202 prints its Location and task id on stderr.
--ou takes a unit's id, name or path ("Parent/Child"); a value with a control character, or a
name no unit has, is refused before anything is sent (exit 2).

${global}`;
}
