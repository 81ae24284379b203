// The bash completion script in a real bash, with `dpx` being the built bundle against the demo: it
// registers itself, and the function it registers fills COMPREPLY from COMP_WORDS/COMP_CWORD.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const bundle = join(root, 'dist', 'dpx.js');
const demo = useDemo();
const home = temporaryFolder('dpx-bash-');

beforeAll(async () => {
  await run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root });
  writeFileSync(join(home, 'eu.token'), 'x');
}, 120_000);

/** Runs `script` in a bash without rc files, with the completion loaded and `dpx` being the bundle. */
async function bash(script: string): Promise<string> {
  const prelude = `dpx() { ${JSON.stringify(process.execPath)} ${JSON.stringify(bundle)} "$@"; }\neval "$(dpx completion bash)"\n`;
  const { stdout, stderr } = await run('bash', ['--norc', '--noprofile', '-c', prelude + script], {
    cwd: home,
    env: {
      PATH: process.env['PATH'],
      HOME: home,
      XDG_CACHE_HOME: join(home, 'cache'),
      DPX_CONFIG: join(home, 'config.json'),
      DPX_BASE_URL: demo.region.baseUrl,
      DPX_TOKEN: demo.region.tokens.personal,
    },
  });
  expect(stderr).toBe('');
  return stdout;
}

/** COMPREPLY after the registered function ran for `words`, the cursor on the last one. */
async function reply(words: string[]): Promise<string[]> {
  const quoted = words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const stdout = await bash(
    `COMP_WORDS=(dpx ${quoted}); COMP_CWORD=${words.length}\n$(complete -p dpx | sed -E 's/.* -F ([^ ]+) .*/\\1/')\nprintf '%s\\n' "\${COMPREPLY[@]}"`,
  );
  return stdout === '\n' ? [] : stdout.replace(/\n$/, '').split('\n');
}

describe('dpx completion bash', () => {
  it('registers a completion function for dpx', async () => {
    expect((await bash('complete -p dpx')).trim()).toBe('complete -F _dpx dpx');
  });

  it("completes commands and resource names from the demo's index", async () => {
    expect(await reply(['wh'])).toEqual(['whoami']);
    expect(await reply(['list', 'prot'])).toEqual(['protection-groups']);
  });

  it('shows unit ids only (the names are descriptions bash cannot show), and finds a unit by its name', async () => {
    const units = await reply(['--ou', '']);
    expect(units.length).toBeGreaterThan(10);
    for (const unit of units) expect(unit).toMatch(/^[0-9a-f-]{36}$/);
    expect(await reply(['--ou', 'berlin'])).toHaveLength(1);
  });

  it('completes a variable name up to its `=`, and file names for --token-file', async () => {
    expect(await reply(['list', 'backups', '--var', 'prot'])).toEqual(['protection_group_id=']);
    expect(await reply(['--token-file', 'eu'])).toEqual(['eu.token']);
  });
});
