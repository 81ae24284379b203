// The help of the commands that set dpx up or keep its work rather than ask a control plane: whoami,
// profile, completion, the demo and saved views. help.ts holds the others and the global options these
// end with.

/** Their texts, each ending with `global`: the global options. */
export function setupTexts(global: string): Record<'whoami' | 'profile' | 'completion' | 'demo' | 'view', string> {
  return {
    whoami: `Usage: dpx whoami [--output table|json]

What the token says about itself: subject, type, issuer, when it was issued and expires, where it came
from (a file, a variable or a command) and the origin it belongs to, and warnings (expired, expiring
soon, issued by another control plane). The token is decoded, not verified, and never printed.

${global}`,
    profile: `Usage:
  dpx profile add <name> --base-url URL [--token-file FILE | --token-env VAR | --token-command CMD]
                         [--ou UUID] [--ou-header NAME] [--vendor NAME] [--page-size N]
                         [--concurrency N] [--rate N] [--proxy URL] [--ca-file PEM]
                         [--allow-writes | --read-only]
  dpx profile list
  dpx profile use <name>
  dpx profile remove <name>

Profiles live in the config file (DPX_CONFIG overrides its path). The first profile added becomes the
current one. A profile stores where the token is (a file, an environment variable, or a command that
prints it), never the token. A token command (a password manager's or a vault's: "op read op://…")
runs when the token is first needed, must print the token alone on one line within 10 s
(DPX_TOKEN_COMMAND_TIMEOUT), is asked again once after a 401, and its token is never written anywhere.
Writes: without --allow-writes or --read-only a profile is read-only by default (--allow-writes or the
explorer's W turn writes on for a run); --allow-writes stores "readOnly": false (writes allowed);
--read-only stores "readOnly": true, which locks it: nothing turns writes on. \`profile list\` says which.

${global}`,
    completion: `Usage: dpx completion [bash|zsh|fish]

Prints a script that completes dpx's commands, options, profile names, and — from the control plane's
discovery index — resource names, operation ids, versions, list variables and organizational units.
Install it once:
  bash   echo 'eval "$(dpx completion bash)"' >> ~/.bashrc
  zsh    echo 'eval "$(dpx completion zsh)"' >> ~/.zshrc        (after compinit; or save it as _dpx in $fpath)
  fish   mkdir -p ~/.config/fish/completions && dpx completion fish > ~/.config/fish/completions/dpx.fish
\`dpx completion\` alone says this for your shell; typed at a terminal, \`dpx completion SHELL\` says it too.
Names are kept in the cache folder ($XDG_CACHE_HOME/dpx) and used for 10 minutes without a request.

${global}`,
    demo: `Usage: dpx demo [--port N] [--scale N] [--seed N] [--rate-limit N] [--tenants N] [--frozen]
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

${global}`,
    view: `Usage: dpx view save NAME -- <command> | view list | view show NAME | view run NAME [options]

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
  run NAME [options]    run it; your options given here replace the saved ones of the same name, e.g.
                        dpx view run failed-restores --ou "Acme Energy" -o json

${global}`,
  };
}
