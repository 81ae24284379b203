// The scripts `dpx completion bash|zsh|fish` prints. Each asks `dpx __complete` for the candidates of the
// words before the cursor and shows them the shell's way; the token file's name is the shell's own job
// (case files, `.har`, are dpx's: after --trail, --offline, case and replay). stderr is discarded there
// too, so nothing can reach the prompt. A candidate may come from a server: bash's is quoted with
// printf %q, zsh's compadd and fish quote what they insert.

import { SHELLS } from './spec.js';

export type Shell = (typeof SHELLS)[number];

/** Options whose value is a file name. */
const FILE_OPTIONS = ['--token-file', '--ca-file', '--proxy-ca-file'];

const BASH = `# dpx completion for bash. Load it from ~/.bashrc:  eval "$(dpx completion bash)"
# or save it as ~/.local/share/bash-completion/completions/dpx
_dpx() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} line
  COMPREPLY=()
  case $prev in
    ${FILE_OPTIONS.join('|')})
      compopt -o filenames 2>/dev/null
      while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "$cur")
      return 0 ;;
  esac
  # Candidates come one a line, a tab and a description after some: bash shows the candidate only. bash
  # inserts a candidate as it is, so each is quoted first: a server's name holding $(…), a quote or a
  # space must reach dpx as one word, never run.
  while IFS= read -r line; do
    [[ -z $line ]] && continue
    printf -v line '%q' "\${line%%$'\\t'*}"
    COMPREPLY+=("$line")
  done < <(dpx __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  # A variable name (name=) waits for its value, a folder for what is in it: no space after either.
  if [[ \${#COMPREPLY[@]} -eq 1 && ( \${COMPREPLY[0]} == *= || \${COMPREPLY[0]} == */ ) ]]; then compopt -o nospace 2>/dev/null; fi
  return 0
}
complete -F _dpx dpx
`;

const ZSH = `#compdef dpx
# dpx completion for zsh. Save it as _dpx in a folder of $fpath, or load it from ~/.zshrc (after
# compinit):  eval "$(dpx completion zsh)"
_dpx() {
  local -a values names
  local line value
  case \${words[CURRENT-1]} in
    ${FILE_OPTIONS.join('|')}) _files; return ;;
  esac
  for line in "\${(@f)$(dpx __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -z $line ]] && continue
    value=\${line%%$'\\t'*}
    # _describe reads value:description; a colon in the value is escaped.
    if [[ $line == *$'\\t'* ]]; then line="\${value//:/\\\\:}:\${line#*$'\\t'}"; else line=\${value//:/\\\\:}; fi
    # A variable name (name=) waits for its value, a folder for what is in it: no space after either.
    if [[ $value == *= || $value == */ ]]; then names+=("$line"); else values+=("$line"); fi
  done
  # dpx has already matched the word (an --ou unit also by its name): -U keeps every candidate.
  (( \${#values} )) && _describe -t values 'dpx' values -U
  (( \${#names} )) && _describe -t variables 'variable' names -U -S ''
  return 0
}
if [[ $funcstack[1] == _dpx ]]; then _dpx "$@"; else compdef _dpx dpx; fi
`;

const FISH = `# dpx completion for fish. Save it as ~/.config/fish/completions/dpx.fish
function __dpx_complete
    set -l words (commandline -opc) (commandline -ct)
    dpx __complete $words[2..-1] 2>/dev/null
end
complete -c dpx -f -a '(__dpx_complete)'
${FILE_OPTIONS.map((option) => `complete -c dpx -l ${option.slice(2)} -r -F`).join('\n')}
`;

const SCRIPTS: Record<Shell, string> = { bash: BASH, zsh: ZSH, fish: FISH };

export function completionScript(shell: Shell): string {
  return SCRIPTS[shell];
}

export function isShell(name: string | undefined): name is Shell {
  return (SHELLS as readonly (string | undefined)[]).includes(name);
}

/** Where each shell's script goes: commands that run as written on a fresh machine (folders made first). */
export const INSTALL: Record<Shell, string[]> = {
  bash: [
    `echo 'eval "$(dpx completion bash)"' >> ~/.bashrc`,
    'or, with bash-completion: mkdir -p ~/.local/share/bash-completion/completions && dpx completion bash > ~/.local/share/bash-completion/completions/dpx',
  ],
  zsh: [
    `echo 'eval "$(dpx completion zsh)"' >> ~/.zshrc      (after compinit in ~/.zshrc)`,
    'or save it as _dpx in a folder of $fpath',
  ],
  fish: ['mkdir -p ~/.config/fish/completions && dpx completion fish > ~/.config/fish/completions/dpx.fish'],
};

/** The user's shell, from $SHELL, when it is one dpx has a script for. */
export function shellOf(env: NodeJS.ProcessEnv): Shell | undefined {
  const name = env['SHELL']?.split('/').pop();
  return isShell(name) ? name : undefined;
}
