// Profiles keep what they are told: profile add keeps every key that has an option (--read-only writes
// "readOnly": true, --schema-dir its folder), refuses an option it cannot keep, and warns when it is given no
// token source; profile set changes one key and profile show prints the profile as the config file holds it.
// The profiles are then used by a run against the demo.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { configPath, dpx } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo();
const folder = temporaryFolder('dpx-profile-');

const saved = (name: string): Record<string, unknown> | undefined =>
  (JSON.parse(readFileSync(configPath, 'utf8')) as { profiles: Record<string, Record<string, unknown>> }).profiles[
    name
  ];

describe('dpx profile add', () => {
  it('--read-only and --schema-dir round-trip through the config file and profile show', async () => {
    const added = await dpx([
      'profile',
      'add',
      'locked',
      '--base-url',
      demo.region.baseUrl,
      '--token-env',
      'LOCKED_TOKEN',
      '--read-only',
      '--schema-dir',
      folder,
      '--page-size',
      '25',
    ]);
    expect(added.code).toBe(0);
    expect(added.stderr).not.toMatch(/warning/);
    expect(saved('locked')).toEqual({
      baseUrl: demo.region.baseUrl,
      tokenEnv: 'LOCKED_TOKEN',
      readOnly: true,
      schemaDir: folder,
      pageSize: 25,
    });
    const shown = await dpx(['profile', 'show', 'locked']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(saved('locked'));
    const listed = await dpx(['profile', 'list']);
    // The writes column says a "readOnly": true profile is locked (issue 38: nothing turns writes on).
    expect(listed.stdout).toMatch(/locked\s+\S+\s+env LOCKED_TOKEN\s+locked/);
    // The profile is the run's: its token variable reaches the demo, and the answer comes back.
    const run = await dpx(['--profile', 'locked', 'resources', '-o', 'json'], {
      env: { LOCKED_TOKEN: demo.region.tokens.personal },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).length).toBeGreaterThan(0);
  });

  it('refuses an option it cannot keep, and saves nothing', async () => {
    for (const option of [['--timeout', '5'], ['--trail', join(folder, 'case.har')], ['--demo']]) {
      const result = await dpx(['profile', 'add', 'dropped', '--base-url', demo.region.baseUrl, ...option]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: a profile cannot keep ${option[0]}`);
    }
    expect(saved('dropped')).toBeUndefined();
  });

  it('saves a profile with no token source, with a warning that says how to give one', async () => {
    const result = await dpx(['profile', 'add', 'bare', '--base-url', demo.region.baseUrl]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: profile bare names no token source, so each run reads DPX_TOKEN; to keep one: dpx profile set bare tokenFile FILE',
    );
    expect(saved('bare')).toEqual({ baseUrl: demo.region.baseUrl });
  });
});

describe('dpx profile set and show', () => {
  it('sets a key by its config name or its option name, typed as the key takes it', async () => {
    await dpx(['profile', 'add', 'eu', '--base-url', demo.region.baseUrl, '--token-env', 'EU_TOKEN']);
    expect((await dpx(['profile', 'set', 'eu', 'concurrency', '4'])).code).toBe(0);
    expect((await dpx(['profile', 'set', 'eu', 'read-only', 'true'])).code).toBe(0);
    expect((await dpx(['profile', 'set', 'eu', 'ouHeader', 'x-acme-organizationalunit-context'])).code).toBe(0);
    expect(saved('eu')).toEqual({
      baseUrl: demo.region.baseUrl,
      tokenEnv: 'EU_TOKEN',
      concurrency: 4,
      readOnly: true,
      ouHeader: 'x-acme-organizationalunit-context',
    });
    const shown = await dpx(['profile', 'show', 'eu']);
    expect(JSON.parse(shown.stdout)).toEqual(saved('eu'));
  });

  it('a token source replaces the other one, and an empty value removes a key', async () => {
    const token = join(folder, 'eu.token');
    writeFileSync(token, `${demo.region.tokens.personal}\n`, { mode: 0o600 });
    const set = await dpx(['profile', 'set', 'eu', 'tokenFile', token]);
    expect(set.code).toBe(0);
    expect(set.stderr).toContain('profile eu: tokenFile set (instead of tokenEnv)');
    expect((await dpx(['profile', 'set', 'eu', 'ouHeader', ''])).code).toBe(0);
    expect(saved('eu')).toEqual({ baseUrl: demo.region.baseUrl, tokenFile: token, concurrency: 4, readOnly: true });
    const run = await dpx(['--profile', 'eu', 'whoami']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^token from\s+token file /m);
  });

  it('refuses a key no profile has, and a value of the wrong type, leaving the profile as it was', async () => {
    const before = saved('eu');
    const unknown = await dpx(['profile', 'set', 'eu', 'schemadri', '/x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: a profile has no key 'schemadri'");
    expect(unknown.stderr).toMatch(/^hint: did you mean schemaDir\?/m);
    const wrong = await dpx(['profile', 'set', 'eu', 'readOnly', 'maybe']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("error: readOnly takes true or false, not 'maybe'");
    const negative = await dpx(['profile', 'set', 'eu', 'concurrency', '-1']);
    expect(negative.code).toBe(2);
    expect(saved('eu')).toEqual(before);
    const missing = await dpx(['profile', 'show', 'nosuch']);
    expect(missing.code).toBe(2);
  });
});
