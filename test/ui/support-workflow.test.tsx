// Issue 5's support workflow in the explorer, on the demo's two regions: switching profiles keeps each
// one's place, the OU picker draws the unit tree, the header warns about the token, T writes a HAR
// without the token, and b / :bm save and open a view.
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HarTrail } from '../../src/api/case/trail.js';
import { loadConfig } from '../../src/config/profiles.js';
import { configProfiles } from '../../src/ui/services/connection.js';
import { useDemo } from '../helpers/demo.js';
import { startServer, type TestServer } from '../helpers/servers.js';
import { KEY, mount, type Mounted } from './mount.js';
import { temporaryFolder } from '../helpers/temporary.js';

const demo = useDemo();
let dir: string;
let configPath: string;
let ui: Mounted | undefined;
let slowIndex: TestServer;

beforeAll(async () => {
  // The other region behind a proxy that holds its discovery index back, as a far control plane would.
  slowIndex = await startServer(async (request, response) => {
    if (request.url === '/') await new Promise((resolve) => setTimeout(resolve, 400));
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => ['authorization', 'accept', 'user-agent'].includes(name)),
    ) as Record<string, string>;
    const upstream = await fetch(`${demo.otherRegion.baseUrl}${request.url}`, { method: request.method, headers });
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    response.end(await upstream.text());
  });
  dir = temporaryFolder('dpx-support-');
  configPath = join(dir, 'config.json');
  for (const [name, region] of [
    ['eu', demo.region],
    ['us', demo.otherRegion],
  ] as const) {
    await writeFile(join(dir, `${name}.token`), `${region.tokens.personal}\n`);
    await chmod(join(dir, `${name}.token`), 0o600);
  }
  const config = {
    current: 'eu',
    profiles: {
      eu: { baseUrl: demo.region.baseUrl, tokenFile: 'eu.token' },
      us: { baseUrl: demo.otherRegion.baseUrl, tokenFile: 'us.token', readOnly: false },
      far: { baseUrl: slowIndex.baseUrl, tokenFile: 'us.token' },
    },
  };
  await writeFile(configPath, JSON.stringify(config), { mode: 0o600 });
});

afterAll(async () => {
  await slowIndex.close();
  await rm(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

/** The explorer on profile `eu` of the temporary config, switching through the config's profiles. */
async function mountOnProfiles(extra: Parameters<typeof mount>[1] = {}): Promise<Mounted> {
  const env = { DPX_CONFIG: configPath };
  const profiles = configProfiles(configPath, env, {});
  const first = await profiles.connect('eu');
  return mount(demo.region, { rows: 30, ...extra, context: { ...first, profiles, configPath, ...extra.context } });
}

describe('the support workflow in the explorer', () => {
  it(':profile switches the control plane and back, each profile keeping its screens, cursor and page', async () => {
    ui = await mountOnProfiles();
    expect(ui.frame()).toContain(`eu · ${new URL(demo.region.baseUrl).host}`);
    await ui.press(':', 'tasks', KEY.enter);
    await ui.waitFor((f) => /page 1\//.test(f), 'the tasks list');
    await ui.press('n');
    await ui.waitFor((f) => /page 2\//.test(f), 'page 2');
    await ui.press('j', 'j', 'j');
    const cursor = (ui.navigator.getState().stack.at(-1)!.state as { cursor: number }).cursor;
    expect(cursor).toBeGreaterThan(0);

    await ui.press(':', 'profile us');
    await ui.waitFor((f) => f.includes('profile us'), 'the profile entry');
    await ui.press(KEY.enter);
    const us = await ui.waitFor(
      (f) => f.includes(`us · ${new URL(demo.otherRegion.baseUrl).host}`),
      "the other region's header",
    );
    expect(us).toContain('[WRITES ALLOWED]');
    expect(ui.session.baseUrl).toBe(demo.otherRegion.baseUrl);
    const usBefore = demo.otherRegion.requestCount();
    // Typed at once, while the other region's index may still be on its way: it opens when it arrives.
    await ui.press(':', 'users', KEY.enter);
    await ui.waitFor((f) => f.includes('users@') && /page 1/.test(f), 'users on us');
    expect(demo.otherRegion.requestCount()).toBeGreaterThan(usBefore);

    await ui.press(':', 'ctx eu', KEY.enter);
    const back = await ui.waitFor(
      (f) => f.includes(`eu · ${new URL(demo.region.baseUrl).host}`) && /page 2\//.test(f),
      'eu where it was left',
    );
    expect(back).toContain('[READ-ONLY]');
    expect(back).toContain('tasks@');
    expect((ui.navigator.getState().stack.at(-1)!.state as { cursor: number }).cursor).toBe(cursor);
    await ui.press(':', 'ctx us', KEY.enter);
    await ui.waitFor((f) => f.includes('users@') && f.includes(`us · `), 'us where it was left');
  });

  it('a palette choice typed while the index is on its way opens once it arrives', async () => {
    ui = await mountOnProfiles();
    await ui.press(':', 'profile far', KEY.enter);
    await ui.waitFor((f) => f.includes(`far · ${new URL(slowIndex.baseUrl).host}`), "the far profile's header");
    expect(ui.navigator.services.catalogOf()).toBeUndefined();
    await ui.press(':', 'users', KEY.enter);
    await ui.waitFor((f) => f.includes('users@') && /page 1/.test(f), 'users on the far profile');
  });

  it('o draws the organizational units as a tree with ids and child counts, and the choice goes into the header', async () => {
    ui = await mount(demo.region, { rows: 40 });
    await ui.press(':', 'tasks', KEY.enter);
    await ui.waitFor((f) => /page 1\//.test(f), 'the tasks list');
    await ui.press('o');
    const frame = await ui.waitFor((f) => f.includes('as a tree') && f.includes('children'), 'the unit tree');
    const lines = frame.split('\n');
    const child = lines.findIndex((l) => l.includes('└ '));
    expect(child).toBeGreaterThan(0);
    const parentLine = lines
      .slice(0, child)
      .reverse()
      .find((l) => /\d+ child(ren)?/.test(l) && !/ 0 children/.test(l));
    expect(parentLine).toBeDefined();
    expect(lines[child]!.indexOf('└')).toBeGreaterThan(parentLine!.search(/\S/));
    expect(lines[child]).toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    const name = /└ (\S+(?: \S+)*?)\s{2,}/.exec(lines[child]!)?.[1];
    expect(name).toBeDefined();
    const steps = lines.filter((l) => /^[› ] /.test(l)).findIndex((l) => l.includes('└ '));
    for (let i = 0; i < steps; i++) await ui.press(KEY.down);
    await ui.press(KEY.enter);
    await ui.waitFor((f) => f.split('\n')[0]!.includes(`OU ${name}`), 'the OU in the header');
    expect(ui.session.ou).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the header warns about a token close to expiry and about a token from another control plane', async () => {
    const soon = await demo.region.mintToken({ expiresInSeconds: 120 });
    ui = await mount(demo.region, { token: soon });
    const near = await ui.waitFor((f) => f.includes('resources'), 'the catalog');
    expect(near.split('\n')[1]).toMatch(/⚠ token expires in [12]m/);
    expect(near.split('\n')[1]).toMatch(/token \S+ \(\w+\) · issuer /);
    expect(near).not.toContain(soon);
    await ui.unmount();
    ui = await mount(demo.region, { token: demo.otherRegion.tokens.personal });
    const foreign = await ui.waitFor((f) => f.includes('⚠'), 'the issuer warning');
    expect(foreign.split('\n')[1]).toContain(
      `issued by ${new URL(demo.otherRegion.baseUrl).host}, not by this control plane`,
    );
    // The warning comes first; who the token says it is follows as far as the width allows.
    expect(foreign.split('\n')[1]).toMatch(/control plane · token \S+/);
  });

  it('T writes the trail so far as a HAR 1.2 file with no token in it, and says where', async () => {
    const token = demo.region.tokens.personal;
    const trail = await HarTrail.temporary(() => [token]);
    const session = new (await import('../../src/api/session/session.js')).Session({
      baseUrl: demo.region.baseUrl,
      token,
      readOnly: true,
      onExchange: trail.record,
    });
    try {
      ui = await mount(demo.region, { context: { session, trail, trailDir: dir } });
      await ui.press(':', 'tasks', KEY.enter);
      await ui.waitFor((f) => /page 1\//.test(f), 'the tasks list');
      await ui.press('T');
      const frame = await ui.waitFor((f) => f.includes('trail written:'), 'the path written');
      const written = (await readdir(dir)).filter((f) => /^dpx-trail-.*\.har$/.test(f));
      expect(written).toHaveLength(1);
      expect(frame).toContain('dpx-trail-');
      const text = await readFile(join(dir, written[0]!), 'utf8');
      const har = JSON.parse(text) as {
        log: { version: string; entries: { request: { url: string; headers: { name: string; value: string }[] } }[] };
      };
      expect(har.log.version).toBe('1.2');
      expect(har.log.entries.length).toBeGreaterThanOrEqual(2);
      expect(har.log.entries.some((e) => e.request.url.includes('/tasks'))).toBe(true);
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.split('.')[2]!);
      const auth = har.log.entries[0]!.request.headers.find((h) => h.name.toLowerCase() === 'authorization');
      expect(auth?.value).toBe('Bearer ***');
    } finally {
      await trail.close();
    }
  });

  it('T says when the temporary trail dropped older bodies, and keeps the newest exchange whole', async () => {
    const token = demo.region.tokens.personal;
    const trail = await HarTrail.temporary(() => [token], 1);
    const trailDir = join(dir, 'dropped');
    await mkdir(trailDir);
    const session = new (await import('../../src/api/session/session.js')).Session({
      baseUrl: demo.region.baseUrl,
      token,
      readOnly: true,
      onExchange: trail.record,
    });
    try {
      ui = await mount(demo.region, { context: { session, trail, trailDir } });
      await ui.press(':', 'tasks', KEY.enter);
      await ui.waitFor((f) => /page 1\//.test(f), 'the tasks list');
      await ui.press('n');
      await ui.waitFor((f) => /page 2\//.test(f), 'page 2');
      await ui.press('T');
      const frame = await ui.waitFor((f) => f.includes('trail written'), 'the trail written');
      expect(frame).toMatch(/bodies of the \d+ oldest of \d+ requests dropped/);
      const written = (await readdir(trailDir)).filter((f) => /^dpx-trail-.*\.har$/.test(f));
      const har = JSON.parse(await readFile(join(trailDir, written[0]!), 'utf8')) as {
        log: { entries: { request: { url: string }; response: { content: { text?: string } } }[] };
      };
      const entries = har.log.entries;
      expect(entries.length).toBeGreaterThanOrEqual(2);
      expect(entries.at(-1)!.response.content.text).toMatch(/^\{/);
      expect(entries.slice(0, -1).filter((e) => e.response.content.text).length).toBe(0);
      expect(entries.slice(0, -1).some((e) => e.request.url.includes('/tasks'))).toBe(true);
    } finally {
      await trail.close();
    }
  });

  it('b saves the view under a name; :bm opens it again at its page', async () => {
    ui = await mountOnProfiles();
    await ui.press(':', 'tasks', KEY.enter);
    await ui.waitFor((f) => /page 1\//.test(f), 'the tasks list');
    await ui.press('n');
    await ui.waitFor((f) => /page 2\//.test(f), 'page 2');
    await ui.press('b');
    await ui.waitFor((f) => f.includes('bookmark eu · tasks@v1'), 'the name prompt');
    await ui.press('\x15', 'tasks-p2', KEY.enter);
    await ui.waitFor((f) => f.includes('bookmark tasks-p2 saved'), 'the bookmark saved');
    const saved = (await loadConfig(configPath)).bookmarks?.['tasks-p2'];
    expect(saved).toEqual({ profile: 'eu', resource: 'tasks', version: 'v1', page: '2' });
    await ui.press(':', 'home', KEY.enter);
    await ui.waitFor((f) => f.includes('resources'), 'home');
    await ui.press(':', 'bm tasks', KEY.enter);
    const opened = await ui.waitFor(
      (f) => f.includes('tasks@v1') && /page 2\//.test(f),
      'the bookmark opened at page 2',
    );
    expect(opened).toContain('home › tasks@v1');
  });
});
