// The help of `dpx whoami`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx whoami [--output table|json]

What the token says about itself: subject, type, issuer, when it was issued and expires, where it came
from (a file, a variable or a command) and the origin it belongs to, and warnings (expired, expiring
soon, issued by another control plane). The token is decoded, not verified, and never printed.

${global}`;
}
