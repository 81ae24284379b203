// The help of `dpx resources`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx resources [--output table|json]

Lists the resources of the discovery index: their versions (newest first, the default marked) and the
number of operations of the default version.
  -o, --output FORMAT   table (default) or json: [{ name, default_version, versions, operations }]

${global}`;
}
