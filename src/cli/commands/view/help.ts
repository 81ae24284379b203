// The help of `dpx view`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx view save NAME -- <command> | view list | view show NAME | view run NAME [options]

Keeps a command line under a name, as a small JSON file in the config folder (views/NAME.json) that a
colleague can be sent and run as it is. The command line is kept as typed: a relative window
(--since 24h) stays relative, and a profile is kept by name. No token is ever kept (none is ever
accepted on the command line).
  save NAME -- CMD…     save CMD (checked first: it must be a command dpx runs)
  list                  the saved views; -o json for their command lines as arrays
  show NAME             the saved command line; -o json for the file's contents
  run NAME [options]    run it; options given here replace the saved ones of the same name, e.g.
                        dpx view run failed-restores --ou "Acme Energy" -o json

${global}`;
}
