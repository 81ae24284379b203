// The help of `dpx profile`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage:
  dpx profile add <name> --base-url URL [--token-file FILE | --token-env VAR | --token-command CMD]
                         [--ou UUID] [--ou-header NAME] [--vendor NAME] [--page-size N]
                         [--concurrency N] [--rate N] [--proxy URL] [--ca-file PEM]
                         [--read-only | --allow-writes] [--schema-dir DIR]
  dpx profile list
  dpx profile use <name>
  dpx profile remove <name>
  dpx profile set <name> KEY VALUE   one key, as config.json names it (schemaDir) or as its option
                                     (schema-dir); an empty VALUE removes the key
  dpx profile show <name>            the profile as config.json holds it

Profiles live in the config file (DPX_CONFIG overrides its path). The first profile added becomes the
current one. Its keys: baseUrl, tokenFile, tokenEnv, tokenCommand, ou, ouHeader, vendor, pageSize,
concurrency, rate, proxy, caFile, readOnly, schemaDir. An option profile add cannot keep (--timeout,
--trail, --demo, --offline, --trust-origin) is refused (exit 2); a profile with no token source is saved
with a warning (each run then reads DPX_TOKEN). A profile stores where the token is (a file, an environment variable, or a command that
prints it), never the token. A token command (a password manager's or a vault's: "op read op://…")
runs when the token is first needed, must print the token alone on one line within 10 s
(DPX_TOKEN_COMMAND_TIMEOUT), is asked again once after a 401, and its token is never written anywhere.
Writes: without --allow-writes or --read-only a profile is read-only by default (--allow-writes or the
explorer's W turn writes on for a run); --allow-writes stores "readOnly": false (writes allowed);
--read-only stores "readOnly": true, which locks it: nothing turns writes on. \`profile list\` says which.

${global}`;
}
