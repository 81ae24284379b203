// The help of `dpx completion`.

/** Its text, ending with `global`: the global options. */
export function help(global: string): string {
  return `Usage: dpx completion [bash|zsh|fish]

Prints a script that completes dpx's commands, options, profile names, and — from the control plane's
discovery index — resource names, operation ids, versions, list variables and organizational units.
Install it once:
  bash   echo 'eval "$(dpx completion bash)"' >> ~/.bashrc
  zsh    echo 'eval "$(dpx completion zsh)"' >> ~/.zshrc        (after compinit; or save it as _dpx in $fpath)
  fish   mkdir -p ~/.config/fish/completions && dpx completion fish > ~/.config/fish/completions/dpx.fish
\`dpx completion\` alone says this for your shell; typed at a terminal, \`dpx completion SHELL\` says it too.
Names are kept in the cache folder ($XDG_CACHE_HOME/dpx) and used for 10 minutes without a request.

${global}`;
}
