// Copying to the terminal's clipboard with OSC 52, which works over SSH as long as the terminal allows
// it. tmux and screen pass the sequence on only when it is wrapped for them.

export function osc52(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const sequence = `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
  if (env['TMUX']) return `\x1bPtmux;${sequence.replaceAll('\x1b', '\x1b\x1b')}\x1b\\`;
  if (env['TERM']?.startsWith('screen')) return `\x1bP${sequence}\x1b\\`;
  return sequence;
}
