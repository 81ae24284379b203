// `W` acts on the session of the screen in front: a list opened on another profile's control plane (as a
// count cell of that profile opens it) has its own write mode, which the header shows and W turns on and
// off; the current profile's stays as it was. A profile set to read-only stays read-only, W saying why.
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configProfiles, type Connection } from '../../src/ui/services/connection.js';
import { useDemo } from '../helpers/demo.js';
import { step } from './step.js';
import { KEY, mount, type Mounted } from './mount.js';
import { temporaryFolder } from '../helpers/temporary.js';

const demo = useDemo();
let ui: Mounted | undefined;
let dir: string;
let configPath: string;

beforeAll(async () => {
  dir = temporaryFolder('dpx-writes-');
  configPath = join(dir, 'config.json');
  for (const [name, region] of [
    ['eu', demo.region],
    ['us', demo.otherRegion],
  ] as const) {
    await writeFile(join(dir, `${name}.token`), `${region.tokens.personal}\n`);
    await chmod(join(dir, `${name}.token`), 0o600);
  }
  await writeFile(
    configPath,
    JSON.stringify({
      current: 'eu',
      profiles: {
        eu: { baseUrl: demo.region.baseUrl, tokenFile: 'eu.token' },
        us: { baseUrl: demo.otherRegion.baseUrl, tokenFile: 'us.token' },
        vault: { baseUrl: demo.otherRegion.baseUrl, tokenFile: 'us.token', readOnly: true },
      },
    }),
    { mode: 0o600 },
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

const header = (frame: string) => frame.split('\n').slice(0, 3).join('\n');
const modeLine = (frame: string) => frame.split('\n')[2] ?? '';

/** A list of users read on `connection`, over whatever the explorer is on. */
async function openUsersOn(mounted: Mounted, connection: Connection): Promise<string> {
  await step(async () => {
    mounted.navigator.open('list', {
      origin: { connection, ou: undefined },
      source: { kind: 'resource', resource: 'users' },
    });
  });
  return mounted.waitFor((f) => f.includes('users@v2') && /page 1\b/.test(f), 'the users list');
}

describe('W and the screen in front', () => {
  it('turns writes on and off on the session of the screen in front, and the header follows the screen', async () => {
    const profiles = configProfiles(configPath, { DPX_CONFIG: configPath }, {});
    const eu = await profiles.connect('eu');
    const us = await profiles.connect('us');
    ui = await mount(demo.region, { context: { ...eu, profiles, configPath } });
    await ui.waitFor((f) => f.includes('users') && modeLine(f).includes('[READ-ONLY]'), 'the catalog, read-only');

    const list = await openUsersOn(ui, us);
    expect(header(list)).toContain(`us · ${new URL(demo.otherRegion.baseUrl).host}`);
    expect(modeLine(list)).toContain('[READ-ONLY]');
    await ui.press('W');
    const prompt = await ui.waitFor((f) => f.includes('Type "writes" and Enter'), 'the typed confirmation');
    expect(prompt).toContain(
      `Allow writes (POST, PUT, PATCH, DELETE) on profile us · ${new URL(demo.otherRegion.baseUrl).host}?`,
    );
    await ui.press('writes', KEY.enter);
    const on = await ui.waitFor((f) => modeLine(f).includes('[WRITES ALLOWED]'), 'writes allowed on the us list');
    expect(on).toContain('users@v2');
    // The screen's own session, not the current profile's.
    expect(us.session.readOnly).toBe(false);
    expect(eu.session.readOnly).toBe(true);

    // Back on the current profile's catalog: its own mode, still read-only.
    await ui.press(KEY.escape);
    const back = await ui.waitFor(
      (f) => !f.includes('users@v2') && modeLine(f).includes('[READ-ONLY]'),
      'the catalog of eu, read-only',
    );
    expect(header(back)).toContain(`eu · ${new URL(demo.region.baseUrl).host}`);
    await ui.press('W');
    const euPrompt = await ui.waitFor((f) => f.includes('Type "writes" and Enter'), 'the confirmation for eu');
    expect(euPrompt).toContain(`on profile eu · ${new URL(demo.region.baseUrl).host}?`);
    await ui.press(KEY.escape);
    expect(eu.session.readOnly).toBe(true);

    // The us list again: writes are still on there, and W turns them off there only.
    const again = await openUsersOn(ui, us);
    expect(modeLine(again)).toContain('[WRITES ALLOWED]');
    await ui.press('W');
    await ui.waitFor(
      (f) => modeLine(f).includes('[READ-ONLY]') && f.includes('writes off: read-only on profile us'),
      'writes off on us',
    );
    expect(us.session.readOnly).toBe(true);
  });

  it('a screen on a profile set to read-only stays read-only: W says why, wherever the explorer is', async () => {
    const profiles = configProfiles(configPath, { DPX_CONFIG: configPath }, {});
    const eu = await profiles.connect('eu');
    const vault = await profiles.connect('vault');
    eu.session.readOnly = false;
    ui = await mount(demo.region, { context: { ...eu, profiles, configPath } });
    await ui.waitFor(
      (f) => f.includes('users') && modeLine(f).includes('[WRITES ALLOWED]'),
      'the catalog of eu, writes allowed',
    );

    const list = await openUsersOn(ui, vault);
    expect(modeLine(list)).toContain('[READ-ONLY]');
    await ui.press('W');
    const refused = await ui.waitFor(
      (f) => f.includes('writes stay off: the profile is set to read-only (profile vault'),
      'the lock named',
    );
    expect(refused).not.toContain('Type "writes"');
    expect(modeLine(refused)).toContain('[READ-ONLY]');
    expect(vault.session.readOnly).toBe(true);
    // The current profile was not touched.
    expect(eu.session.readOnly).toBe(false);
  });
});
