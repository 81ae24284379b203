// The help of `dpx operations`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx operations <resource> [<operation-id>] [--version vN] [--output table|json]

Lists a resource's operations: id, HTTP method, href, and the template's path and query variables.
With an operation id, describes that one operation as dpx call <resource> <operation-id> --help does:
method, href and the versions that have it, its variables, every body field of its schema (required
and optional, type, allowed values, description, example), the body to start from (what --edit
opens: every field named, the optional ones commented out) and an example command.
  --version vN          a version other than the newest
  -o, --output FORMAT   table (default) or json (the operations as an array)

${global}`;
}
