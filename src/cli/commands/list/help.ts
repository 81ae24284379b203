// The help of `dpx list`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx list <resource> [options]

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
                        with --demo, its regions), merged; a name that is no profile exits 2
  --since WHEN          only records from WHEN on, on the resource's own time field (named on
                        stderr): a duration back from now (90m, 24h, 7d), today, yesterday, or an
                        ISO 8601 date or time; sent as a filter ($gte), or applied here where the
                        server refuses that (stderr says so)
  --until WHEN          only records before WHEN ($lt); the same forms
  --time-field F        the field the window is put on, instead of the one dpx finds
  --group-by F[,F…]     every record read (as --all), one row per group with its count, largest
                        first; @unit and @tenant group by the record's unit or its depth-1
                        ancestor; json: {"groups":[{"key":{…},"count":n}],"records":n,"requests":n};
                        with --profiles the key leads with the profile, and each record's unit and
                        tenant are named from its own region's units: one ranking of every region
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
is 1. With --profiles, stderr ends with one line per profile: its records and its requests.

${global}`;
}
