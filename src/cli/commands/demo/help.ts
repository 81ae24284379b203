// The help of `dpx demo`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx demo [--port N] [--scale N] [--seed N] [--rate-limit N] [--tenants N] [--frozen]
                         [--hidden-tenants N] [--link-header-paging LIST,…]

Runs the embedded demo control plane until Ctrl-C and prints each region's base URL and tokens.
  --port N              first port (0, the default, picks free ports)
  --scale N             data size multiplier (1 ≈ 1,000 tasks)
  --seed N              seed of the generated data
  --rate-limit N        requests per second before 429
  --tenants N           N generated tenants, each with 1–3 levels of sub-units, instead of the
                        five fixed ones; the data grows with the units
  --frozen              live tasks stand still: no status changes on its own, so counts taken
                        one after another agree
  --hidden-tenants N    the last N tenants' records are left out of every list asked without the
                        OU header (the unit list still shows them; their own unit, or an
                        ancestor's, sees them): a root's list that does not hold every record
  --link-header-paging LIST,…
                        these lists carry next/prev/first/last only in an RFC 8288 Link
                        header, with no _links, as GitHub-style APIs page

${global}`;
}
