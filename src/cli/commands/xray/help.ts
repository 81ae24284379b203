// The help of `dpx xray`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx xray <resource> <id> [--depth N] [--no-inbound] [--verbose] [--output tree|json|dot]

Everything connected to one record:
  links     the records its links reach, breadth first to --depth (default 2): plain links, link
            arrays, and templated links the record fills; each record read once, cycles marked
  referred  the lists whose records refer to it by id: a field <singular>_id of its resource, or a
            pair such as target_type/target_id whose type names it; one filtered query per list, for
            the largest page it takes (its total_count says how many); a list that refuses or ignores
            the filter in every form is shown as not searchable, never as empty
  history   those referring records that carry a timestamp, newest first: who, what, outcome, when

  --depth N             links followed from the record (0 to 10; default 2)
  --no-inbound          only the links: no queries for what refers to the record
  --verbose             on stderr: what was left out and why, and what the x-ray cost in requests
  -o, --output FORMAT   tree (default; status words coloured on a terminal unless NO_COLOR is set),
                        json: {"root", "nodes": [{key, resource, id, label, status, url, error}],
                               "edges": [{from, to, rel, direction: "out"|"in", via}],
                               "unsearchable": [{list, field, via, reason, code, message}], "cut",
                               "requests"},
                        or dot (Graphviz: dpx xray … -o dot | dot -Tsvg > xray.svg)

Requests: one per record read, one per inbound candidate and filter form tried, one per list that refuses
the large page asked first, and one per list whose fields dpx had to learn from a page (none when it ships
the list's schema); at most 8 at a time.

${global}`;
}
