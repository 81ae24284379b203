// The help of `dpx view`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx view save NAME -- <command> | view list | view show NAME | view run NAME [options]

Keeps a question under a name, as a small JSON file in the config folder (views/NAME.json) that a
colleague can be sent and run as it is. A view holds one read command (resources, operations, list,
count, xray, diff, or a call of a GET operation) and its query options: filters, window, fields,
grouping, sort, format, --ou and profiles by name. Never a base URL, a token source, --trust-origin, a
proxy, a CA file, --allow-writes, --yes, --confirm-id, a body, --trail, a profile command or another
view: such a view is refused (exit 2, naming the option) when saved, shown, listed or run, and nothing
of it is sent. A view runs read-only whatever else is given. The command line is kept as typed: a
relative window (--since 24h) stays relative.
  save NAME -- CMD…     save CMD (checked first: a read command dpx runs, holding only what a view may)
  list                  the saved views; -o json for their command lines as arrays
  show NAME             what the view will run, before anyone runs it; -o json for the file's contents
  run NAME [options]    run it; -o and the global options given here (--ou, --profile, …) replace
                        the saved ones: dpx view run failed-restores --ou "Acme Energy" -o json

${global}`;
}
