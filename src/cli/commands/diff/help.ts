// The help of `dpx diff`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx diff <resource> <id> (--versions A,B | --ou A,B | --profiles A,B) [-o table|json] [--exit-code]

Reads one record twice through the resource's read operation — in two versions, in two organizational
units, or through two saved profiles — and shows the two documents side by side, aligned by field path.
Fields only one side has are marked; two differently named fields holding the same value (users v1
username, v2 email) are paired as "same value". _links and _etag are not compared. With --versions or
--profiles, a single --ou ID scopes both reads.
  -o, --output FORMAT   table (default), or json: {"left": {"label", "url"}, "right": {…}, "fields":
                        [{"path", "right_path"?, "state", "left"?, "right"?}]}; state is equal, changed,
                        only-left, only-right or same-value
  --exit-code           exit 5 when any field differs (else 0)

${global}`;
}
