// Copying to the terminal's clipboard with OSC 52, which works over SSH as long as the terminal allows
// it. The sequence is sent plain: tmux with `set-clipboard on` (its default is `external`, which takes it
// from applications too in 3.3+) and modern terminals take it as it is, while the passthrough wrapping
// tmux once needed is off by default (`allow-passthrough`) and would swallow it. Whether it reached a
// clipboard, no program can tell, so callers show the text as well.

export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}
