// Shell completion quotes every candidate that comes from a server: a resource named `x$(touch pwned)`,
// completed with Tab and run with Enter in a real interactive bash, zsh and fish (in a pseudo-terminal),
// reaches dpx as one argument, and nothing runs. The scripts' text is checked too, so that a machine
// without zsh or fish still checks how they quote.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from '@lydell/node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionScript } from '../../../src/cli/commands/completion/scripts.js';
import { SHELL_RESOURCE, startHostileText } from '../../helpers/hostile-text.js';
import type { TestServer } from '../../helpers/servers.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const root = join(import.meta.dirname, '..', '..', '..');
const bundle = join(root, 'dist', 'dpx.js');
let server: TestServer;

beforeAll(async () => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root });
  server = await startHostileText();
}, 120_000);
afterAll(() => server?.close());

type Shell = 'bash' | 'zsh' | 'fish';

function installed(shell: Shell): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The shell's rc: `dpx` is the bundle for completion, and otherwise writes its arguments one a line to args.txt. */
function rcFor(shell: Shell, home: string): { file: string; argv: string[]; env: Record<string, string> } {
  const node = JSON.stringify(process.execPath);
  const script = JSON.stringify(bundle);
  const args = JSON.stringify(join(home, 'args.txt'));
  switch (shell) {
    case 'bash':
      writeFileSync(
        join(home, 'bashrc'),
        [
          "PS1='ready$ '",
          `dpx() { if [ "$1" = __complete ] || [ "$1" = completion ]; then ${node} ${script} "$@"; else printf '%s\\n' "$@" > ${args}; fi; }`,
          'eval "$(dpx completion bash)"',
          '',
        ].join('\n'),
      );
      return { file: 'bash', argv: ['--noprofile', '--rcfile', join(home, 'bashrc'), '-i'], env: {} };
    case 'zsh':
      writeFileSync(
        join(home, '.zshrc'),
        [
          "PS1='ready$ '",
          `autoload -Uz compinit && compinit -u -d ${JSON.stringify(join(home, '.zcompdump'))}`,
          `dpx() { if [[ $1 == __complete || $1 == completion ]]; then ${node} ${script} "$@"; else printf '%s\\n' "$@" > ${args}; fi; }`,
          'eval "$(dpx completion zsh)"',
          '',
        ].join('\n'),
      );
      return { file: 'zsh', argv: ['-i'], env: { ZDOTDIR: home } };
    case 'fish':
      writeFileSync(
        join(home, 'rc.fish'),
        [
          "function fish_prompt; echo -n 'ready$ '; end",
          `function dpx; if contains -- $argv[1] __complete completion; ${node} ${script} $argv; else; printf '%s\\n' $argv > ${args}; end; end`,
          'dpx completion fish | source',
          '',
        ].join('\n'),
      );
      return { file: 'fish', argv: ['--no-config', '-i', '-C', `source ${join(home, 'rc.fish')}`], env: {} };
  }
}

/**
 * Types `line`, Tab, Enter in an interactive `shell` in `home`; gives the arguments dpx ran with and
 * whether the resource's command substitution ran.
 */
async function completeAndRun(shell: Shell, line: string): Promise<{ args: string[]; pwned: boolean; screen: string }> {
  const home = temporaryFolder(`dpx-${shell}-quote-`);
  const rc = rcFor(shell, home);
  const pty = spawn(rc.file, rc.argv, {
    cwd: home,
    cols: 120,
    rows: 30,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      TERM: 'xterm',
      XDG_CACHE_HOME: join(home, 'cache'),
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      DPX_CONFIG: join(home, 'config.json'),
      DPX_BASE_URL: server.baseUrl,
      DPX_TOKEN: 'hostile-test-token',
      ...rc.env,
    },
  });
  let screen = '';
  pty.onData((data) => {
    screen += data;
  });
  const until = async (check: () => boolean, what: string, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(`${shell}: timed out waiting for ${what}; the terminal shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  try {
    await until(() => screen.includes('ready$'), 'the prompt');
    pty.write(line);
    await until(() => screen.includes(line.slice(-3)), 'the typed line');
    const before = screen.length;
    pty.write('\t');
    // The candidate shows on the line once the shell has asked dpx and inserted it.
    await until(() => screen.slice(before).includes('pwned'), 'the completed word');
    pty.write('\r');
    await until(() => existsSync(join(home, 'args.txt')), 'dpx to run');
    const args = readFileSync(join(home, 'args.txt'), 'utf8').replace(/\n$/, '').split('\n');
    return { args, pwned: existsSync(join(home, 'pwned')), screen };
  } finally {
    pty.kill();
  }
}

// Outside CI a shell that is not installed is skipped; in CI (.ci/run installs zsh and fish) it fails.
const ci = process.env.CI === 'true';

describe.each(['bash', 'zsh', 'fish'] as const)('%s completion of a hostile resource name', (shell) => {
  it.skipIf(!ci && !installed(shell))(
    'inserts it quoted: Enter runs dpx with it as one argument, and runs nothing else',
    async () => {
      if (!installed(shell)) throw new Error(`${shell} is not installed, and CI runs every shell: .ci/run installs it`);
      const { args, pwned } = await completeAndRun(shell, 'dpx list x');
      expect(pwned).toBe(false);
      expect(args).toEqual(['list', SHELL_RESOURCE]);
    },
  );
});

describe('the scripts quote what they insert', () => {
  it('bash quotes each candidate with printf %q before it reaches COMPREPLY', () => {
    expect(completionScript('bash')).toMatch(/printf -v \w+ '%q'/);
  });

  it('zsh leaves the quoting to compadd (no -Q), and fish to its own escaping (no --no-escape)', () => {
    expect(completionScript('zsh')).not.toMatch(/-Q\b/);
    expect(completionScript('fish')).not.toMatch(/no-escape|-Q\b/);
  });
});
