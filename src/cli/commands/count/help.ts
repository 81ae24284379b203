// The help of `dpx count`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx count <resource> [options]

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
                        as one more key (or one more operator of FIELD's own condition)
  --since WHEN, --until WHEN, --time-field F
                        count a time window, as dpx list does; the server's counts for the window,
                        or, where it refuses the window as a filter, counted here from every record
                        (marked counted)
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
                        regions); default: the one the run uses. With --sort, the regions' totals
                        stand first and their units are ranked as one table; stderr ends with each
                        profile's total and requests; a name that is no profile exits 2
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

${global}`;
}
