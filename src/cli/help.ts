// The text of `dpx --help` and `dpx <command> --help`.

import { caseTexts } from './help-cases.js';
import { setupTexts } from './help-setup.js';
import type { CommandName } from './args.js';

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
  --trust-origin ORIGIN send the token to ORIGIN although it belongs to another control plane
  -h, --help            help; \`dpx <command> --help\` for one command
  --version             print dpx's version

Exit codes: 0 ok, 1 API error or partial answer, 2 usage error, 3 network or protocol error (also
paging that never ends), 4 refused for safety, 5 differences found (replay and diff with --exit-code),
6 a followed task that did not succeed, 130/143 interrupted (SIGINT/SIGTERM).`;

/** Each command in a few words: the overview below, and the descriptions shell completion shows. */
export const COMMAND_SUMMARIES: Record<
  Exclude<CommandName, 'explorer' | 'help'>,
  { usage: string; summary: string }
> = {
  resources: { usage: 'dpx resources', summary: 'resources, versions and operation counts' },
  operations: { usage: 'dpx operations <resource>', summary: "a resource's operations" },
  list: { usage: 'dpx list <resource>', summary: 'list records (one page, or --all)' },
  count: { usage: 'dpx count <resource>', summary: "count records per unit and control plane, by a field's values" },
  call: { usage: 'dpx call <resource> <operation>', summary: 'send any operation from the index' },
  xray: { usage: 'dpx xray <resource> <id>', summary: 'everything connected to a record, both ways, and its history' },
  replay: {
    usage: 'dpx replay FILE.har',
    summary: "send a case's reads again, each in its recorded unit, and compare",
  },
  case: { usage: 'dpx case FILE.har', summary: 'what a case holds: each command, when, where, requests, records' },
  report: {
    usage: 'dpx report FILE.har -o R.html',
    summary: 'a case as one HTML (or Markdown) file a ticket can carry',
  },
  diff: { usage: 'dpx diff <resource> <id> …', summary: 'one record in two versions, units or profiles, side by side' },
  whoami: { usage: 'dpx whoami', summary: 'what the token says about itself' },
  profile: { usage: 'dpx profile add|list|use|remove', summary: 'saved control planes' },
  demo: { usage: 'dpx demo', summary: 'run the demo control plane alone' },
  completion: { usage: 'dpx completion bash|zsh|fish', summary: 'a shell completion script' },
  view: { usage: 'dpx view save|list|show|run', summary: 'saved command lines, to run again or hand on' },
};

const OVERVIEW = [
  ['dpx [global options]', 'the interactive explorer'],
  ['dpx --demo', 'the explorer on the embedded demo control plane'],
  ['dpx --offline FILE.har', 'the explorer on what a trail recorded, with no network'],
  ...Object.values(COMMAND_SUMMARIES).map(({ usage, summary }) => [usage, summary]),
]
  .map(([usage, summary]) => `  ${usage!.padEnd(34)}${summary}`)
  .join('\n');

const TEXTS: Record<CommandName, string> = {
  ...setupTexts(GLOBAL),
  ...caseTexts(GLOBAL),
  explorer: `dpx — explore a Data Protection Management REST API from its discovery index

Usage:
${OVERVIEW}

${GLOBAL}`,
  help: '',
  resources: `Usage: dpx resources [--output table|json]

Lists the resources of the discovery index: their versions (newest first, the default marked) and the
number of operations of the default version.
  -o, --output FORMAT   table (default) or json: [{ name, default_version, versions, operations }]

${GLOBAL}`,
  operations: `Usage: dpx operations <resource> [<operation-id>] [--version vN] [--output table|json]

Lists a resource's operations: id, HTTP method, href, and the template's path and query variables.
With an operation id, describes that one operation as dpx call <resource> <operation-id> --help does:
method, href and the versions that have it, its variables, every body field of its schema (required
and optional, type, allowed values, description, example), the body to start from (what --edit
opens: every field named, the optional ones commented out) and an example command.
  --version vN          a version other than the newest
  -o, --output FORMAT   table (default) or json (the operations as an array)

${GLOBAL}`,
  list: `Usage: dpx list <resource> [options]

Lists records of a resource: one page, or every page with --all.
  --op ID               the list operation to use (default: the GET whose id starts with "list")
  --var NAME=VALUE      a path variable of a list under a parent record (repeatable), e.g.
                        --var protection_group_id=…; without --op, picks the list whose variables
                        these are (dpx resources marks such lists with +)
  --version vN          a version other than the newest
  --filter JSON         a JSON filter, e.g. '{"name":{"$contains":"a"}}' (checked before sending)
  --page-size N         records per page
  --page P              the page to start from
  --all                 follow "next" links through every page, streaming
  --max-items N         stop after N records
  --ou all|UNIT,UNIT    list in every unit (all) or in these (ids, names or paths), merged
  --profiles all|NAME,NAME
                        list in each of these profiles' control planes (all: every profile;
                        with --demo, its regions), merged
  --since WHEN          only records from WHEN on, on the resource's own time field (named on
                        stderr): a duration back from now (90m, 24h, 7d), today, yesterday, or an
                        ISO 8601 date or time; sent as a filter ($gte), or applied here where the
                        server refuses that (stderr says so)
  --until WHEN          only records before WHEN ($lt); the same forms
  --time-field F        the field the window is put on, instead of the one dpx finds
  --group-by F[,F…]     every record read (as --all), one row per group with its count, largest
                        first; @unit and @tenant group by the record's unit or its depth-1
                        ancestor; json: {"groups":[{"key":{…},"count":n}],"records":n,"requests":n}
  --fields A,B.C        only these fields, in this order, in every format; a dotted path reads a
                        nested value (initiated_by.email); a field a record lacks is left out
                        (json, ndjson) or an empty cell (table, csv)
  -o, --output FORMAT   table (default), json, ndjson or csv
  --csv-crlf            csv lines end in CR LF (default: LF, as Unix tools expect)

Formats:
  table   fits the terminal width (stdout's columns; when stdout is not a terminal, $COLUMNS, else 100).
          Columns come from the records: id, then status-like, then name-like, then short values, nested
          values last; a cut cell ends in "…"; fields left out for lack of width are named on stderr.
          With --all the column widths come from the first page.
  json    one document: {"items":[...], "total_count": n, "total_pages": n, "pages_fetched": n}; the
          counts are the server's and appear only when it sent them; pages_fetched is always there.
  ndjson  one record per line, written page by page as the pages arrive.
  csv     RFC 4180 but for LF line ends (--csv-crlf: CR LF); the header is the fields of the first
          page; nested values are JSON.
Records are printed as the server sent them (json, ndjson); table and csv leave out _links.
With --fields, each record is an object keyed by the paths given: {"id":…,"initiated_by.email":…}.
Progress for --all goes to stderr when stderr is a terminal.

Across units or profiles (--ou all|ID,ID or --profiles), every source's records stream as they arrive.
json and ndjson records carry "_context": {"profile", "base_url", "ou", "ou_name", "ou_path"} (ou_path:
the names from the root to the record's own unit, else to the unit it was read in); table and csv lead
with the profile and the unit (_profile, _unit; csv also _ou). A record seen under several units (an
ancestor's list holds its descendants' records) comes out once, with the deepest unit. A source that
fails is named on stderr (and in the json's "errors"), the others are still printed, and the exit code
is 1.

${GLOBAL}`,
  count: `Usage: dpx count <resource> [options]

Counts records in each unit of each control plane: one row per (control plane, unit), one column per
value of a field, other, and the total. The total is the server's own count for the unit's scope (the
unit and its descendants), never the sum of the columns; other is what the columns leave out. Each
count is a page of one record; a list that reports no total_count is read whole instead, its numbers
marked * (counted), which stderr says.
  --by FIELD            a column per value of FIELD (without it: only the total)
  --values A,B,...      the values to count (true, false and null as JSON literals); by default the
                        record schema's values and those on the root list's first page, last page and
                        up to 5 pages between
  --filter JSON         a JSON object that narrows every count; each cell adds {FIELD: {"$eq": value}}
  --since WHEN, --until WHEN, --time-field F
                        count a time window, as dpx list does; the server's counts for the window,
                        or, where it refuses the window as a filter, counted here from every record
                        (marked counted)
                        as one more key (or one more operator of FIELD's own condition)
  --ou all|UNIT,UNIT    the units: every unit of the index's unit list in tree order, or these, each
                        an id, a name or a path ("Acme Energy/EU") (default: the unit the run acts in)
  --depth N             only units down to depth N (root 0, tenants 1); each counts its whole subtree
  --sort [-]COLUMN      each unit's children by a value's column, other, total or unit (- descending)
  --nonzero             leave out the units whose total is 0
  --plan auto|cells|scan
                        how to count (default auto: the cheaper by estimate): cells asks a request
                        per unit and value; scan reads the root's list once and counts each record
                        in its unit and every unit above it, then checks every tenant's total and 3
                        cells at random against the server's counts (on a mismatch: cells, said on
                        stderr; a list with no counts: "counted, not verified")
  --explain             print both plans' requests and time at the current rate and the choice;
                        sends only the index, the unit list and at most 2 requests to the list
  --profiles all|NAME,NAME
                        the control planes: each profile's own (all: every profile; with --demo, its
                        regions); default: the one the run uses
  --version vN          a version other than the newest
  -o, --output FORMAT   table (default), json or csv
  --csv-crlf            csv lines end in CR LF (default: LF)

Formats:
  table   units indented by depth; each count with a bar, its share of the row's total, coloured by
          what the value means (failed red, completed green…) on a terminal without NO_COLOR;
          without --by, bars compare the totals. other shows when it is not 0; a row whose numbers
          changed while they were counted says "changed" there.
  json    {"by", "columns": [...], "values": {"given", "schema", "pages_read", "every_page",
          "may_be_missing"}, "rows": [{"profile", "base_url", "ou", "ou_name", "ou_path", "depth",
          "counts": {value: n}, "other", "total", "counted", "changed_while_counting", "error"}],
          "requests", "plan": {"chosen", "planned", "estimates": {"cells", "scan"}, "verification",
          "verified": [checks], "fallback", "scan_impossible"}}
  csv     profile,base_url,ou,ou_name,ou_path,depth,<values...>,other,total,counted,
          changed_while_counting,error
A row that fails (a unit that refuses, a control plane that does not answer) carries its error, is
named on stderr, and makes the exit code 1; every other row is still printed. A unit header the server
seems to ignore (every unit counting the whole list) is named on stderr. Progress (units done,
requests, 429s waited) goes to stderr when it is a terminal.

${GLOBAL}`,
  call: `Usage: dpx call <resource> <operation-id> [ID] [options]
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
--allow-writes says (exit 4). On a terminal, dpx shows the request as it will leave (method, URL, headers with the token
masked, the body, the unit by name and id) and asks; a DELETE asks for the id it deletes to be typed.
Without a terminal, --yes confirms a write and --confirm-id ID a DELETE; otherwise nothing is sent
(exit 4). A body with schema problems is listed problem by problem, and sent only after a second yes
(or --send-invalid). A 202 prints its Location and task id on stderr.
--ou takes a unit's id, name or path ("Parent/Child"); a value with a control character, or a
name no unit has, is refused before anything is sent (exit 2).

${GLOBAL}`,
  xray: `Usage: dpx xray <resource> <id> [--depth N] [--no-inbound] [--verbose] [--output tree|json|dot]

Everything connected to one record:
  links     the records its links reach, breadth first to --depth (default 2): plain links, link
            arrays, and templated links the record fills; each record read once, cycles marked
  referred  the lists whose records refer to it by id: a field <singular>_id of its resource, or a
            pair such as target_type/target_id whose type names it; one filtered query of a small
            page per list (its total_count says how many); a filter the server refuses is dropped
  history   those referring records that carry a timestamp, newest first: who, what, outcome, when

  --depth N             links followed from the record (0 to 10; default 2)
  --no-inbound          only the links: no queries for what refers to the record
  --verbose             on stderr: what was left out and why, and what the x-ray cost in requests
  -o, --output FORMAT   tree (default; status words coloured on a terminal unless NO_COLOR is set),
                        json: {"root", "nodes": [{key, resource, id, label, status, url, error}],
                               "edges": [{from, to, rel, direction: "out"|"in", via}], "requests"},
                        or dot (Graphviz: dpx xray … -o dot | dot -Tsvg > xray.svg)

Requests: one per record read, one per inbound candidate, and one per list whose fields dpx had to learn
from a page (none when it ships the list's schema); at most 8 at a time.

${GLOBAL}`,
  diff: `Usage: dpx diff <resource> <id> (--versions A,B | --ou A,B | --profiles A,B) [-o table|json] [--exit-code]

Reads one record twice through the resource's read operation — in two versions, in two organizational
units, or through two saved profiles — and shows the two documents side by side, aligned by field path.
Fields only one side has are marked; two differently named fields holding the same value (users v1
username, v2 email) are paired as "same value". _links and _etag are not compared. With --versions or
--profiles, a single --ou ID scopes both reads.
  -o, --output FORMAT   table (default), or json: {"left": {"label", "url"}, "right": {…}, "fields":
                        [{"path", "right_path"?, "state", "left"?, "right"?}]}; state is equal, changed,
                        only-left, only-right or same-value
  --exit-code           exit 5 when any field differs (else 0)

${GLOBAL}`,
};

export function helpText(command: CommandName): string {
  return `${TEXTS[command] || TEXTS.explorer}\n`;
}
