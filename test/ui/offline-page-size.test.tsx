// The explorer offline on a case that holds a list at another page size than the explorer asks: `:tasks`
// shows the recorded page, and the session is told which size it shows.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { readTrail, type RecordedTrail } from '../../src/api/case/har.js';
import { trailTransport } from '../../src/api/case/offline.js';
import { HarTrail } from '../../src/api/case/trail.js';
import { listRequest, readPage } from '../../src/api/session/pages.js';
import { Session } from '../../src/api/session/session.js';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';
import { temporaryFolder } from '../helpers/temporary.js';

const demo = useDemo();
let dir: string;
let trail: RecordedTrail;
let firstId: string;
let ui: Mounted | undefined;

beforeAll(async () => {
  dir = temporaryFolder('dpx-offline-ui-');
  const path = join(dir, 'c.har');
  const writer = await HarTrail.open(path, () => [demo.region.tokens.personal]);
  const online = new Session({
    baseUrl: demo.region.baseUrl,
    token: demo.region.tokens.personal,
    onExchange: writer.record,
  });
  await online.catalog();
  const page = readPage(await online.send(await listRequest(online, { resource: 'tasks', pageSize: 20 })));
  firstId = String(page.items[0]!['id']);
  await writer.close();
  trail = await readTrail(path);
});
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it(':tasks offline shows the list the case holds at page size 20, and says so', async () => {
  const warnings: string[] = [];
  const session = new Session({
    baseUrl: trail.baseUrl,
    transport: trailTransport(trail),
    onWarning: (message) => warnings.push(message),
  });
  ui = await mount(demo.region, { rows: 40, context: { session } });
  await ui.press(':', 'tasks', KEY.enter);
  await ui.waitFor((f) => f.includes(firstId.slice(0, 8)), 'the recorded tasks');
  // The case holds the first page alone: only a later page the explorer reads ahead may be missing.
  const missing = ui
    .frame()
    .split('\n')
    .filter((line) => line.includes('not in this case'));
  expect(missing.every((line) => /page 2/.test(line))).toBe(true);
  expect(warnings.some((warning) => /shown from the page the case holds at page size 20/.test(warning))).toBe(true);
});
