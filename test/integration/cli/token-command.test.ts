// A profile's token from a command (a password manager's, a vault's): run when the token is first
// needed, kept in memory for the run, asked again once after a 401; a command that fails, hangs or
// prints more than one line exits 2 with what it said made safe for the terminal.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { useBareListener } from '../../helpers/servers.js';
import { dpx, tokensShown } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo();
const folder = temporaryFolder('dpx-token-command-');
const config = join(folder, 'config.json');
const env = (extra: NodeJS.ProcessEnv = {}) => ({ DPX_CONFIG: config, PATH: process.env['PATH'], ...extra });

/** A shell command printing the file's content: the tests change what the "vault" holds. */
function vault(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content, { mode: 0o600 });
  return `cat '${path}'`;
}

async function profile(name: string, command: string, baseUrl = demo.region.baseUrl): Promise<void> {
  const added = await dpx(['profile', 'add', name, '--base-url', baseUrl, '--token-command', command], { env: env() });
  expect(added.code, added.stderr).toBe(0);
}

/** Another "control plane", which must receive nothing. */
const other = useBareListener();

afterAll(async () => {
  expect(tokensShown([...Object.values(demo.region.tokens), ...Object.values(demo.otherRegion.tokens)])).toEqual([]);
});

describe('a token command that succeeds', () => {
  it("gives the token to the profile's requests, runs once for the run, and is written nowhere", async () => {
    const runs = join(folder, 'runs');
    writeFileSync(runs, '');
    const token = join(folder, 'ok.token');
    writeFileSync(token, `${demo.region.tokens.personal}\n`, { mode: 0o600 });
    await profile('ok', `echo run >> '${runs}'; cat '${token}'`);
    const trail = join(folder, 'ok.har');
    const result = await dpx(
      ['--profile', 'ok', '--trail', trail, 'list', 'users', '--all', '--page-size', '5', '-o', 'json'],
      { env: env() },
    );
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { items: unknown[] }).items.length).toBeGreaterThan(5);
    expect(readFileSync(runs, 'utf8')).toBe('run\n');
    // Not in the trail, nor anywhere in dpx's config or cache folders.
    expect(readFileSync(trail, 'utf8')).not.toContain(demo.region.tokens.personal);
    for (const name of readdirSync(folder)) {
      if (name !== 'ok.token')
        expect(readFileSync(join(folder, name), 'utf8'), name).not.toContain(demo.region.tokens.personal);
    }
  });

  it('whoami says the token came from a command, and never shows it', async () => {
    await profile('who', vault('who.token', demo.region.tokens.personal));
    const table = await dpx(['--profile', 'who', 'whoami'], { env: env() });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^token from\s+the token command of profile who$/m);
    expect(table.stdout).toMatch(/^token kind\s+command$/m);
    expect(table.stdout).not.toContain(demo.region.tokens.personal);
    expect(table.stdout).not.toContain('who.token');
  });

  it('is asked again once after a 401: a rotated token is picked up and the read sent again', async () => {
    // The first run prints an expired token, the second a good one.
    const runs = join(folder, 'rotations');
    writeFileSync(runs, '');
    const stale = join(folder, 'stale.token');
    const fresh = join(folder, 'fresh.token');
    writeFileSync(stale, demo.region.tokens.expired, { mode: 0o600 });
    writeFileSync(fresh, demo.region.tokens.personal, { mode: 0o600 });
    await profile(
      'rotating',
      `echo run >> '${runs}'; if [ "$(wc -l < '${runs}')" -le 1 ]; then cat '${stale}'; else cat '${fresh}'; fi`,
    );
    const result = await dpx(['--profile', 'rotating', 'resources', '-o', 'json'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(runs, 'utf8')).toBe('run\nrun\n');
  });

  it("is asked again only once: a token still refused after that is the 401's error", async () => {
    const runs = join(folder, 'refused-runs');
    writeFileSync(runs, '');
    await profile('refused', `echo run >> '${runs}'; cat '${join(folder, 'stale.token')}'`);
    const result = await dpx(['--profile', 'refused', 'resources'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/HTTP 401/);
    expect(readFileSync(runs, 'utf8')).toBe('run\nrun\n');
  });
});

describe('a token command that does not give one token', () => {
  it('fails: exit 2 with its exit status and its stderr made inert, nothing sent', async () => {
    await profile('failing', `printf 'vault sealed \\033]52;c;cHduZWQ=\\007 \\033[31mred\\n' >&2; exit 3`);
    const before = demo.region.requestCount();
    const result = await dpx(['--profile', 'failing', 'resources'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: the token command of profile failing failed \(exit status 3\): vault sealed /m,
    );
    // The escape sequences arrive as text, not as commands to the terminal.
    expect(result.stderr).not.toMatch(/[\u001b\u0007]/);
    expect(result.stderr).toContain('␛]52;c;cHduZWQ=␇');
    expect(demo.region.requestCount()).toBe(before);
  });

  it('hangs: given up on at the timeout (short here), exit 2', async () => {
    await profile('hanging', 'sleep 30; echo too-late');
    const started = Date.now();
    const result = await dpx(['--profile', 'hanging', 'resources'], { env: env({ DPX_TOKEN_COMMAND_TIMEOUT: '0.5' }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: the token command of profile hanging did not finish within 0\.5 s$/m);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('prints two lines: exit 2, one token expected', async () => {
    await profile('two-lines', vault('two.token', `${demo.region.tokens.personal}\n${demo.region.tokens.service}\n`));
    const result = await dpx(['--profile', 'two-lines', 'resources'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: the token command of profile two-lines: expected one token, found 2 lines$/m,
    );
  });

  it('prints nothing: exit 2', async () => {
    await profile('silent', 'true');
    const result = await dpx(['--profile', 'silent', 'resources'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/token command of profile silent is empty/);
  });
});

describe('the origin rules', () => {
  it("apply to a command's token as to any profile's: another origin is refused before the command runs or anything is sent", async () => {
    const runs = join(folder, 'origin-runs');
    writeFileSync(runs, '');
    await profile('guarded', `echo run >> '${runs}'; cat '${join(folder, 'fresh.token')}'`);
    const result = await dpx(['--profile', 'guarded', '--base-url', other.url, 'resources'], { env: env() });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /refused to send the token \(the token command of profile guarded\) to http:\/\/127\.0\.0\.1:\d+: it belongs to /,
    );
    expect(readFileSync(runs, 'utf8')).toBe('');
    expect(other.connections).toBe(0);
  });
});
