// A list or a count whose first request fails has nothing else to show: the failure (status, the server's
// codes and messages, the hint) takes the place of the empty view, and the screen stays usable.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DemoRegion } from '../../src/demo/server.js';
import { startFaultServer, status, type FaultServer } from '../helpers/faults.js';
import { KEY, mount, type Mounted } from './mount.js';

let server: FaultServer;
let ui: Mounted | undefined;

beforeAll(async () => {
  server = await startFaultServer({ list: status(403) });
});
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});
afterAll(() => server.close());

const region = () =>
  ({ name: 'faulty', baseUrl: server.baseUrl, tokens: { personal: 'a-test-token' } }) as unknown as DemoRegion;

/** The body's lines: under the breadcrumb, above the footer. */
function body(frame: string): string {
  const lines = frame.split('\n');
  return lines.slice(lines.findIndex((line) => line.startsWith('home ›')) + 1, -1).join('\n');
}

describe('errors shown in place of the empty view', () => {
  it('a list whose first page is refused shows the status, the code and message, and the hint in its body', async () => {
    ui = await mount(region(), { rows: 24 });
    await ui.waitFor((f) => f.includes('things'), 'the catalog');
    await ui.press(KEY.enter);
    const frame = await ui.waitFor((f) => f.includes('[status_403] the server says 403'), 'the failure');
    expect(body(frame).split('\n')[0]).toMatch(/^✗ .*403/);
    expect(body(frame)).toContain('[status_403] the server says 403');
    expect(body(frame)).toMatch(/hint: /);
    expect(frame).not.toContain('the list is empty');
    // Still usable: back to home.
    await ui.press(KEY.escape);
    await ui.waitFor((f) => f.includes('/ to filter'), 'home again');
  });

  it('a count that cannot start shows why in place of the matrix', async () => {
    ui = await mount(region(), { rows: 24 });
    await ui.waitFor((f) => f.includes('things'), 'the catalog');
    await ui.press(':', 'count things by state', KEY.enter);
    const frame = await ui.waitFor((f) => f.includes('offers no list of organizational units'), 'the failure');
    const lines = body(frame).split('\n');
    expect(lines[0]).toMatch(/^✗ .*offers no list of organizational units/);
    expect(lines[1]).toMatch(/hint: /);
  });
});
